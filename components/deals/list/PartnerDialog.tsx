// 'Changer de partenaire' (spec 001 §2.12): the admin searches the partners by name or email and picks
// one, then confirms with the quote's new total as the server's quote engine computes it (a new
// partner's grid re-prices a quote that was not sent yet) and what else it does (a quote the customer
// received goes back to 'Nouvelle demande', both partners are emailed): nothing changes until
// 'Confirmer le changement'.
import { useEffect, useState } from "react";
import { Dialog } from "../../ui/Dialog.tsx";
import { ApiError } from "../../ui/api.ts";
import { formatEuros } from "../../../lib/money.ts";
import type { DealListRow } from "./rows.ts";
import { type Company, fetchPartnerPreview, fetchPartners, type PartnerPreview } from "./list_api.ts";
import { INPUT, LIST_MESSAGES } from "./messages.ts";

/** Lower-case, accents removed: "Élodie" matches "elodie". */
const fold = (text: string) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

/** The partners loaded once per page, shared by every opening of the dialog. */
let partnersOnce: Promise<Company[]> | null = null;

type Step =
  | { kind: "choose" }
  | { kind: "confirm"; company: Company; preview: PartnerPreview | null; error: string | null };

export function PartnerDialog({ row, onClose, onConfirm }: {
  row: DealListRow;
  onClose: () => void;
  /** Applies the change (the dialog is closed first). */
  onConfirm: (row: DealListRow, company: Company) => void;
}) {
  const [companies, setCompanies] = useState<Company[] | null>(null);
  const [companiesError, setCompaniesError] = useState(false);
  const [search, setSearch] = useState("");
  const [step, setStep] = useState<Step>({ kind: "choose" });

  useEffect(() => {
    partnersOnce ??= fetchPartners();
    partnersOnce.then(setCompanies, () => {
      partnersOnce = null;
      setCompaniesError(true);
    });
  }, []);

  const choose = async (company: Company) => {
    setStep({ kind: "confirm", company, preview: null, error: null });
    try {
      const preview = await fetchPartnerPreview(row.id, company.id);
      setStep((s) => s.kind === "confirm" && s.company.id === company.id ? { ...s, preview } : s);
    } catch (error) {
      const message = error instanceof ApiError ? error.message : LIST_MESSAGES.previewError;
      setStep((s) => s.kind === "confirm" && s.company.id === company.id ? { ...s, error: message } : s);
    }
  };

  const q = fold(search.trim());
  const shown = (companies ?? []).filter((c) => !q || fold(c.name).includes(q) || fold(c.email).includes(q));

  return (
    <Dialog open onClose={onClose} title="Changer de partenaire" width={600} testId="partner-dialog">
      <div class="text-sm">
        <p class="mb-3 text-slate-600">
          Devis #{row.id} — partenaire actuel : <strong>{row.companyName ?? "aucun"}</strong>
        </p>
        {step.kind === "confirm"
          ? (
            <Confirmation
              company={step.company}
              preview={step.preview}
              error={step.error}
              back={() => setStep({ kind: "choose" })}
              confirm={() => onConfirm(row, step.company)}
            />
          )
          : (
            <>
              <input
                type="search"
                value={search}
                placeholder="Rechercher par nom ou email"
                aria-label="Rechercher un partenaire par nom ou email"
                class={INPUT}
                onInput={(e) => setSearch((e.target as HTMLInputElement).value)}
              />
              <div class="mt-3 max-h-[300px] overflow-y-auto rounded-lg border border-slate-200">
                {companiesError
                  ? <p class="p-4 text-red-600" role="alert">{LIST_MESSAGES.partnersError}</p>
                  : companies === null
                  ? <p class="p-4 text-slate-500" aria-busy="true">Chargement des partenaires…</p>
                  : shown.length === 0
                  ? <p class="p-4 text-center text-slate-500">{LIST_MESSAGES.noPartner}</p>
                  : (
                    <ul data-testid="partner-options">
                      {shown.map((company) => (
                        <PartnerOption
                          key={company.id}
                          company={company}
                          current={company.id === row.companyId}
                          choose={choose}
                        />
                      ))}
                    </ul>
                  )}
              </div>
            </>
          )}
      </div>
    </Dialog>
  );
}

function PartnerOption({ company, current, choose }: {
  company: Company;
  current: boolean;
  choose: (company: Company) => void;
}) {
  return (
    <li class="border-b border-slate-100 last:border-b-0">
      <button
        type="button"
        disabled={current}
        class="flex w-full items-start justify-between gap-3 px-4 py-3 text-left hover:bg-brand-50 disabled:cursor-default disabled:bg-slate-50"
        onClick={() => choose(company)}
      >
        <span class="min-w-0">
          <span class="block font-semibold text-slate-900">{company.name}</span>
          <span class="block truncate text-slate-600">{company.email}</span>
        </span>
        <span class="shrink-0 text-right text-slate-500">
          {company.city ?? ""}
          {current && <span class="block text-xs font-semibold text-brand-700">Partenaire actuel</span>}
        </span>
      </button>
    </li>
  );
}

/** The second step: the new partner, the totals before and after, then back or confirm. */
function Confirmation({ company, preview, error, back, confirm }: {
  company: Company;
  preview: PartnerPreview | null;
  error: string | null;
  back: () => void;
  confirm: () => void;
}) {
  return (
    <div data-testid="partner-confirmation">
      <p class="text-slate-700">
        Nouveau partenaire : <strong>{company.name}</strong>
      </p>
      {error
        ? <p class="mt-3 text-red-600" role="alert">{error}</p>
        : preview === null
        ? <p class="mt-3 text-slate-500" aria-busy="true">Calcul du nouveau montant…</p>
        : (
          <>
            <p class="mt-3 text-slate-600">
              {preview.repriced
                ? "Le devis sera recalculé avec la grille tarifaire de ce partenaire."
                : "Les lignes du devis ne changent pas."}
            </p>
            <dl class="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1" data-testid="partner-preview">
              <dt class="text-slate-600">Montant HT</dt>
              <dd data-testid="partner-preview-ht">
                <TotalChange from={preview.current.totalHtCents} to={preview.next.totalHtCents} />
              </dd>
              <dt class="text-slate-600">Montant TTC</dt>
              <dd data-testid="partner-preview-ttc">
                <TotalChange from={preview.current.totalTtcCents} to={preview.next.totalTtcCents} />
              </dd>
            </dl>
            {preview.notice && (
              <p
                class="mt-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-amber-900"
                role="note"
                data-testid="partner-change-notice"
              >
                {preview.notice}
              </p>
            )}
          </>
        )}
      <div class="mt-6 flex justify-end gap-2">
        <button type="button" class="rounded-lg border border-slate-300 px-4 py-2 font-medium" onClick={back}>
          Retour
        </button>
        <button
          type="button"
          class="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
          disabled={preview === null}
          onClick={confirm}
          data-testid="confirm-partner"
        >
          Confirmer le changement
        </button>
      </div>
    </div>
  );
}

function TotalChange({ from, to }: { from: number; to: number }) {
  if (from === to) return <span class="whitespace-nowrap font-semibold">{formatEuros(to)} (inchangé)</span>;
  return (
    <span>
      <span class="whitespace-nowrap text-slate-500 line-through">{formatEuros(from)}</span>
      {" → "}
      <span class="whitespace-nowrap font-semibold">{formatEuros(to)}</span>
    </span>
  );
}
