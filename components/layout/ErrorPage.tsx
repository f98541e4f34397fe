import type { AppError } from "../../lib/errors.ts";
import type { Ctx } from "../../lib/http/context.ts";
import { renderSitePage } from "./render.tsx";

const TITLES: Record<number, string> = {
  400: "Requête invalide",
  401: "Connexion requise",
  403: "Accès refusé",
  404: "Page introuvable",
  409: "Action impossible",
  413: "Requête trop volumineuse",
  422: "Données invalides",
  429: "Trop de requêtes",
  500: "Erreur",
  503: "Service indisponible",
};

/** The line a customer can quote to support: the request's id (X-Request-Id, in every log line). */
export const REQUEST_REFERENCE = "Référence de la requête :";

function ErrorBody({ status, title, message, requestId }: {
  status: number;
  title: string;
  message: string;
  requestId?: string;
}) {
  return (
    <section class="mx-auto max-w-xl px-4 py-20 text-center">
      <p class="text-5xl font-extrabold text-brand-500">{status}</p>
      <h1 class="mt-4 text-2xl font-bold">{title}</h1>
      <p class="mt-3 text-slate-600" data-testid="error-message">{message}</p>
      {requestId && (
        <p class="mt-3 text-sm text-slate-500" data-testid="request-id">
          {REQUEST_REFERENCE} <code class="select-all">{requestId}</code>
        </p>
      )}
      <div class="mt-8 flex flex-wrap justify-center gap-3">
        {status === 401 && (
          <a href="/login" class="inline-block rounded-full bg-brand-500 px-5 py-2 font-semibold text-white">
            Se connecter
          </a>
        )}
        <a
          href="/"
          class={status === 401
            ? "inline-block rounded-full border border-slate-300 px-5 py-2 font-semibold"
            : "inline-block rounded-full bg-brand-500 px-5 py-2 font-semibold text-white"}
        >
          Retour à l'accueil
        </a>
      </div>
    </section>
  );
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );

/** A page that needs nothing but this process: the database may be what failed. */
function bareErrorPage(c: Ctx, title: string, message: string, status: number, requestId?: string): Response {
  const reference = requestId ? `<p>${REQUEST_REFERENCE} <code>${escapeHtml(requestId)}</code></p>` : "";
  return c.html(
    `<!DOCTYPE html><html lang="fr"><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
      `<h1>${escapeHtml(title)}</h1><p data-testid="error-message">${escapeHtml(message)}</p>${reference}`,
    status as 500,
  );
}

export async function renderErrorPage(c: Ctx, error: AppError, status = error.status): Promise<Response> {
  const title = TITLES[status] ?? "Erreur";
  const requestId = c.var.requestId;
  // 503: the database cannot be reached; the site's header and footer would wait for it.
  if (status === 503) return bareErrorPage(c, title, error.message, status, requestId);
  try {
    return await renderSitePage(
      c,
      title,
      <ErrorBody status={status} title={title} message={error.message} requestId={requestId} />,
      status,
    );
  } catch {
    // The error page must render even when the database is unreachable.
    return bareErrorPage(c, title, error.message, status, requestId);
  }
}
