// The gift voucher on the cart page (inside the CartLines island): 'Vous avez un bon cadeau ?' — a code
// field (POST /api/cart/code) with the server's French refusals, then the applied voucher with what it
// has left and a way to take it off (DELETE /api/cart/code). The discount itself is the server's at
// checkout; the page previews it with the same pure rule (voucherDiscount).
import { useState } from "react";
import { api, ApiError } from "../ui/api.ts";
import { formatEuros } from "../../lib/money.ts";
import { VOUCHER_MESSAGES } from "../../lib/vouchers/rules.ts";

export interface AppliedCartVoucher {
  /** Cents the voucher has left. */
  remaining: number;
}

export function CartVoucher({ voucher, disabled, onChange, say }: {
  voucher: AppliedCartVoucher | null;
  disabled: boolean;
  onChange: (voucher: AppliedCartVoucher | null) => void;
  say: (type: "success" | "error", text: string) => void;
}) {
  const [code, setCode] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  const apply = async (event: Event) => {
    event.preventDefault();
    if (!code.trim()) return setError(VOUCHER_MESSAGES.codeRequired);
    setBusy(true);
    setError("");
    try {
      const answer = await api<{ results: { remaining: number }; message: string }>(
        "POST",
        "/api/cart/code",
        {
          code,
        },
      );
      onChange({ remaining: answer.results.remaining });
      setCode("");
      say("success", answer.message);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : VOUCHER_MESSAGES.codeUnknown);
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    try {
      const answer = await api<{ message: string }>("DELETE", "/api/cart/code");
      onChange(null);
      say("success", answer.message);
    } catch (e) {
      onChange(null);
      say("error", e instanceof ApiError ? e.message : VOUCHER_MESSAGES.noCode);
    }
  };

  if (voucher) {
    return (
      <p class="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-emerald-50 px-4 py-3 text-emerald-900">
        <span data-testid="cart-voucher">
          Bon cadeau appliqué : {formatEuros(voucher.remaining)} disponibles
        </span>
        <button type="button" class="text-sm underline" disabled={disabled} onClick={remove}>
          Retirer le bon cadeau
        </button>
      </p>
    );
  }
  return (
    <form class="rounded-lg border px-4 py-3" onSubmit={apply} noValidate data-testid="cart-voucher-form">
      <label for="cart-voucher-code" class="block text-sm font-medium text-slate-700">
        Vous avez un bon cadeau ?
      </label>
      {/* The 19-character code stays whole: the button goes under it when the line is too narrow. */}
      <div class="mt-1 flex flex-wrap gap-2">
        <input
          id="cart-voucher-code"
          name="code"
          autoComplete="off"
          placeholder="XXXX-XXXX-XXXX-XXXX"
          maxLength={40}
          value={code}
          disabled={disabled}
          onInput={(e) =>
            setCode((e.target as HTMLInputElement).value)}
          class="min-w-[14rem] flex-1 rounded-lg border border-slate-300 px-3 py-2 font-mono uppercase"
        />
        <button
          type="submit"
          class="rounded-lg border border-brand-600 px-4 py-2 font-semibold text-brand-700 disabled:opacity-60"
          disabled={busy || disabled}
        >
          Appliquer
        </button>
      </div>
      {error && <p role="alert" class="mt-2 text-sm text-red-700" data-testid="cart-voucher-error">{error}
      </p>}
    </form>
  );
}
