// The cart page's lines (/panier): each held date with the time its hold has left, its quantity
// (PATCH /api/cart/line/{id}: held again for CART_HOLD_MINUTES), its removal (DELETE), and the totals
// (rules.sessionPrice, as the server computes them). Online payment of workshops is not open yet: no
// pay button, the page says so.
import { useEffect, useState } from "react";
import { api, ApiError } from "../components/ui/api.ts";
import { Notice, type NoticeState } from "../components/ui/Notice.tsx";
import { formatEuros } from "../lib/money.ts";
import {
  formatCountdown,
  formatDateTime,
  holdSecondsLeft,
  SESSION_MESSAGES as M,
  SNACKBAR_MS,
} from "../lib/sessions/rules.ts";

export interface CartLineProps {
  id: string;
  sessionTitle: string;
  sessionSlug: string;
  city: string;
  dtstart: number;
  quantity: number;
  maxQuantity: number;
  unitPrice: number;
  total: number;
  expiresAt: number;
}

export interface CartLinesProps {
  lines: CartLineProps[];
  /** The server's clock when the page was rendered (unix seconds). */
  now: number;
}

export default function CartLines({ lines: initial, now }: CartLinesProps) {
  const [lines, setLines] = useState(initial);
  const [clock, setClock] = useState(now);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const say = (type: NoticeState["type"], text: string) => setNotice({ type, text, key: Date.now() });

  useEffect(() => {
    // The countdown follows the server's clock, whatever the visitor's clock says.
    const offset = now - Date.now() / 1000;
    const timer = setInterval(() => setClock(Math.floor(Date.now() / 1000 + offset)), 1000);
    return () => clearInterval(timer);
  }, []);

  const live = lines.filter((line) => holdSecondsLeft(line.expiresAt, clock) > 0);
  const total = live.reduce((sum, line) => sum + line.total, 0);

  const change = async (line: CartLineProps, quantity: number) => {
    try {
      const answer = await api<{ results: { quantity: number; expiresAt: number }; message: string }>(
        "PATCH",
        `/api/cart/line/${line.id}`,
        { quantity },
      );
      const q = answer.results.quantity;
      setLines((list) =>
        list.map((l) =>
          l.id === line.id
            ? { ...l, quantity: q, total: l.unitPrice * q, expiresAt: answer.results.expiresAt }
            : l
        )
      );
      say("success", answer.message);
    } catch (error) {
      say("error", error instanceof ApiError ? error.message : M.lineNotFound);
      if (error instanceof ApiError && (error.status === 404 || error.status === 409)) {
        setLines((list) => list.filter((l) => l.id !== line.id));
      }
    }
  };

  const remove = async (line: CartLineProps) => {
    try {
      const answer = await api<{ message: string }>("DELETE", `/api/cart/line/${line.id}`);
      setLines((list) => list.filter((l) => l.id !== line.id));
      say("success", answer.message);
    } catch (error) {
      say("error", error instanceof ApiError ? error.message : M.lineNotFound);
    }
  };

  return (
    <div class="space-y-4" data-testid="cart">
      {live.length === 0 && <p class="text-slate-600">{M.emptyCart}</p>}
      <ul class="space-y-3">
        {live.map((line) => (
          <li key={line.id} data-testid="cart-line" class="rounded-xl border p-4">
            <div class="flex flex-wrap items-center justify-between gap-3">
              <div>
                <a href={`/session/${line.sessionSlug}`} class="font-semibold underline">
                  {line.sessionTitle}
                </a>
                <p class="text-sm text-slate-600">{line.city} · {formatDateTime(line.dtstart)}</p>
                <p class="text-sm text-amber-700" data-testid="cart-line-hold">
                  Places gardées encore {formatCountdown(holdSecondsLeft(line.expiresAt, clock))}
                </p>
              </div>
              <label class="text-sm">
                Places{" "}
                <select
                  value={String(line.quantity)}
                  class="ml-1 rounded border px-2 py-1"
                  onChange={(event) => change(line, Number((event.target as HTMLSelectElement).value))}
                >
                  {Array.from({ length: Math.min(line.maxQuantity, 50) }, (_, i) => i + 1).map((n) => (
                    <option key={n} value={String(n)}>{n}</option>
                  ))}
                </select>
              </label>
              <p class="font-semibold" data-testid="cart-line-total">{formatEuros(line.total)}</p>
              <button type="button" class="rounded border px-3 py-1 text-sm" onClick={() => remove(line)}>
                Retirer
              </button>
            </div>
          </li>
        ))}
      </ul>
      <p class="flex justify-between border-t pt-3 text-lg font-semibold">
        <span>Total TTC</span>
        <span data-testid="cart-total">{formatEuros(total)}</span>
      </p>
      <p role="note" class="rounded-lg bg-amber-50 p-3 text-amber-900">
        {M.paymentSoon}. Vos places restent gardées pendant la durée indiquée ; sans paiement, elles sont
        remises en vente ensuite.
      </p>
      <Notice notice={notice} onDone={() => setNotice(null)} durationMs={SNACKBAR_MS} />
    </div>
  );
}
