// The login popup: buttons opening one native <dialog> around the login/register form, in the mode of
// the button pressed.
import { useEffect, useRef, useState } from "react";
import AuthForm, { type AuthFormProps } from "./AuthForm.tsx";

export interface AuthDialogButton {
  label: string;
  className: string;
  mode: "login" | "register";
}

export interface AuthDialogProps extends Omit<AuthFormProps, "mode"> {
  buttons: AuthDialogButton[];
}

export default function AuthDialog({ buttons, ...form }: AuthDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [mode, setMode] = useState<"login" | "register">(buttons[0]?.mode ?? "login");
  const [opened, setOpened] = useState(0);
  useEffect(() => {
    const close = () => dialog.current?.close();
    globalThis.addEventListener("after-login", close);
    return () => globalThis.removeEventListener("after-login", close);
  }, []);
  const open = (next: "login" | "register") => {
    setMode(next);
    setOpened(opened + 1); // a fresh form each time the dialog opens
    dialog.current?.showModal();
  };
  return (
    <>
      {buttons.map((button) => (
        <button
          key={button.label}
          type="button"
          class={button.className}
          onClick={() => open(button.mode)}
        >
          {button.label}
        </button>
      ))}
      <dialog
        ref={dialog}
        // As wide as the card (spec: 500 px to log in, 800 px to register): the close button sits on it.
        class={`m-auto bg-transparent p-0 ${
          mode === "login" ? "w-[min(500px,calc(100vw-2rem))]" : "w-[min(800px,calc(100vw-2rem))]"
        }`}
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
          <AuthForm key={`${opened}`} {...form} mode={mode} onModeChange={setMode} />
        </div>
      </dialog>
    </>
  );
}
