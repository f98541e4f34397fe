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

export async function renderErrorPage(c: Ctx, error: AppError, status = error.status): Promise<Response> {
  const title = TITLES[status] ?? "Erreur";
  const requestId = c.var.requestId;
  try {
    return await renderSitePage(
      c,
      title,
      <ErrorBody status={status} title={title} message={error.message} requestId={requestId} />,
      status,
    );
  } catch {
    // The error page must render even when the database is unreachable. The id is ours (a uuid or a
    // header checked against [A-Za-z0-9._-]): no markup can come through it.
    const reference = requestId ? `<p>${REQUEST_REFERENCE} <code>${requestId}</code></p>` : "";
    return c.html(
      `<!DOCTYPE html><html lang="fr"><meta charset="utf-8"><title>${title}</title><h1>${title}</h1>${reference}`,
      status as 500,
    );
  }
}
