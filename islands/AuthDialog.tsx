// The login popup: a button opening a native <dialog> around the login/register form.
import { useEffect, useRef } from "react";
import AuthForm, { type AuthFormProps } from "./AuthForm.tsx";

export interface AuthDialogProps extends AuthFormProps {
  buttonLabel: string;
  buttonClass?: string;
}

export default function AuthDialog({ buttonLabel, buttonClass, ...form }: AuthDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const close = () => dialog.current?.close();
    globalThis.addEventListener("after-login", close);
    return () => globalThis.removeEventListener("after-login", close);
  }, []);
  return (
    <>
      <button type="button" class={buttonClass} onClick={() => dialog.current?.showModal()}>
        {buttonLabel}
      </button>
      <dialog
        ref={dialog}
        class="m-auto w-[min(800px,calc(100vw-2rem))] bg-transparent p-0"
        aria-label="Connexion ou inscription"
      >
        <div class="relative">
          <button
            type="button"
            aria-label="Fermer"
            class="absolute right-3 top-3 z-10 rounded-full px-2 text-xl text-slate-500 hover:bg-slate-100"
            onClick={() => dialog.current?.close()}
          >
            ×
          </button>
          <AuthForm {...form} />
        </div>
      </dialog>
    </>
  );
}
