// 'Déconnexion' (spec 000 §2: the top bar's logout, /logout): a form button that POSTs to /logout, with
// the look of the link it replaces. Logging out by GET would let an image or a link end a session.
import type { ComponentChildren } from "preact";

export function LogoutButton({ class: className, children }: { class: string; children: ComponentChildren }) {
  return (
    <form method="post" action="/logout" class="contents">
      <button type="submit" class={className}>{children}</button>
    </form>
  );
}
