// The customer deal page /deal/show/{token} (spec 000 §2 'Customer deal page', §4, §6), rendered on
// the server from publicDeal(). Phone first (it is opened from an email): the key figures, then the
// amount with the payment buttons, then the quote's details. Interactive parts are small islands:
// PaymentSection (its payment form is loaded only when its dialog opens), CocktailChoice, DealRefusal
// and PhotoLightbox; a visitor gets only the first (as a login prompt) and the photos.
import type { PublicDeal } from "../../../lib/deals/use_cases/public_deal.ts";
import { CUSTOMER_MESSAGES } from "../../../lib/deals/rules.ts";
import { euros, paidAtFr } from "../../../lib/deals/format.ts";
import { fillTemplate } from "../../../lib/deals/template.ts";
import { PAYMENT_MESSAGES } from "../../../lib/payments/rules.ts";
import { Island } from "../../Island.tsx";
import { DealChatSection } from "../../chat/DealChatSection.tsx";
import type { PageChat } from "../../../lib/chat/use_cases/page_chat.ts";
import PaymentSection from "../../../islands/PaymentSection.tsx";
import DealRefusal from "../../../islands/DealRefusal.tsx";
import PhotoLightbox, { MAX_PHOTOS } from "../../../islands/PhotoLightbox.tsx";
import { StatusChip } from "../StatusChip.tsx";
import { RichTextView } from "../../richtext/RichTextView.tsx";
import { templateValuesOf } from "../presentation/template_values.ts";
import { type DealShowView, editPath, facts, isPaymentSuccess, latestInvoice, LOGIN_PROMPT } from "./view.ts";
import type { FlashMessage } from "../../../lib/http/cookies.ts";
import { FlashMessages } from "../../layout/FlashMessages.tsx";
import { detailOf, QuoteDetail } from "./QuoteDetail.tsx";
import { CocktailsSection } from "./Cocktails.tsx";
import { Banner, Card, CheckIcon, DocumentLinkItem, DownloadIcon, PencilIcon } from "./ui.tsx";

export const DEAL_PAGE_TITLE = "Votre devis";

function Facts({ page }: { page: PublicDeal }) {
  return (
    <dl class="mt-5 grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6" data-testid="deal-facts">
      {facts(page.deal).map((fact) => (
        <div key={fact.label} class="rounded-xl bg-white/80 px-3 py-2.5 shadow-sm ring-1 ring-slate-200/70">
          <dt class="text-xs font-medium text-slate-500">{fact.label}</dt>
          <dd class="mt-0.5 font-bold text-slate-900" data-testid={fact.testId}>{fact.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The invoice of each payment, beside the line that says it was paid (documents due, as the
 * Documents card lists them). */
function InvoiceLink({ href, label }: { href: string; label: string }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener"
      class="ml-1 inline-flex items-center gap-1 font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-800"
    >
      <DownloadIcon class="h-4 w-4" />
      {label}
    </a>
  );
}

function Amount({ page, invoices }: { page: PublicDeal; invoices: boolean }) {
  const { deal } = page;
  const invoice = (kind: string) => `/api/customer/deal/download/invoice/${deal.token}/${kind}`;
  return (
    <div class="mb-4">
      <p class="text-sm text-slate-600">Montant de la prestation</p>
      <p class="text-3xl font-extrabold tracking-tight text-slate-900" data-testid="amount-ttc">
        {euros(deal.totals.totalTTC)} <span class="text-base font-semibold text-slate-500">TTC</span>
      </p>
      <p class="text-xs text-slate-500">soit {euros(deal.totals.totalInvoiceByPartner)} HT</p>
      {(deal.depositPaidAt || deal.paidAt) && (
        <ul class="mt-3 space-y-1 text-sm" data-testid="paid-lines">
          {deal.depositPaidAt && (
            <li class="text-emerald-700">
              ✓ Acompte de {euros(deal.depositAmount)} réglé le {paidAtFr(deal.depositPaidAt)}
              {invoices && <InvoiceLink href={invoice("deposit")} label="Facture d'acompte" />}
            </li>
          )}
          {deal.paidAt && (
            <li class="text-emerald-700">
              ✓ {deal.depositPaidAt ? "Solde réglé" : "Réglé intégralement"} le {paidAtFr(deal.paidAt)}
              {invoices && (
                <InvoiceLink
                  href={invoice(deal.depositPaidAt ? "final" : "full")}
                  label={deal.depositPaidAt ? "Facture de solde" : "Facture"}
                />
              )}
            </li>
          )}
        </ul>
      )}
    </div>
  );
}

/** The payment island without buttons: only its return-from-the-bank confirmation and notice. */
function BankReturn({ token }: { token: string }) {
  return (
    <Island
      component={PaymentSection}
      props={{ token, mode: "pay", options: [], errorNotices: true }}
    />
  );
}

function PaymentCard(
  { page, view, backFromBank }: { page: PublicDeal; view: DealShowView; backFromBank: boolean },
) {
  const { deal } = page;
  if (view.relation === "anonymous") {
    return (
      <Card title="Accepter votre devis" testId="login-section">
        <Amount page={page} invoices={view.canDownload} />
        <p class="mb-4 text-sm text-slate-600">
          Connectez-vous ou créez votre compte client pour télécharger votre devis, choisir vos cocktails et
          régler votre prestation en ligne.
        </p>
        {
          /* The spec's long label made a three-line red block on a phone, the loudest thing on the
            visitor's first screen: the button's text is set smaller here, on two lines at 390 px. */
        }
        <div class="[&_[data-testid=login-buttons]>button]:rounded-full [&_[data-testid=login-buttons]>button]:py-3 [&_[data-testid=login-buttons]>button]:text-sm [&_[data-testid=login-buttons]>button]:leading-snug">
          <Island
            component={PaymentSection}
            props={{
              token: deal.token,
              mode: "login",
              loginButtons: [{
                label: LOGIN_PROMPT,
                ...(view.loginMessage ? { message: view.loginMessage } : {}),
              }],
            }}
          />
        </div>
      </Card>
    );
  }
  if (view.isCustomer && !view.refused) {
    return (
      <Card title="Régler votre prestation" testId="payment-section">
        <Amount page={page} invoices={view.canDownload} />
        {view.options.length > 0
          ? (
            <>
              <Island
                component={PaymentSection}
                props={{ token: deal.token, mode: "pay", options: view.options, errorNotices: true }}
              />
              <p class="mt-3 text-xs text-slate-500">Paiement par carte bancaire, sécurisé (SSL 256 bits).</p>
            </>
          )
          : (
            <>
              {backFromBank && <BankReturn token={deal.token} />}
              {deal.paidAt
                ? (
                  <Banner tone="success" testId="fully-paid">
                    Votre prestation est entièrement réglée. Merci !
                  </Banner>
                )
                : <p class="text-sm text-slate-600">Aucun paiement n'est attendu pour le moment.</p>}
            </>
          )}
      </Card>
    );
  }
  return (
    <Card testId="amount-section">
      <Amount page={page} invoices={view.canDownload} />
      {backFromBank && view.isCustomer && <BankReturn token={deal.token} />}
      {!view.refused && view.relation !== "other_customer" && (
        <Banner tone="info" testId="customers-only">{PAYMENT_MESSAGES.customersOnly}</Banner>
      )}
    </Card>
  );
}

function Documents({ view }: { view: DealShowView }) {
  return (
    <Card title="Documents" testId="documents">
      <div class="grid gap-2">
        {view.documents.map((doc) => <DocumentLinkItem key={doc.href} label={doc.label} href={doc.href} />)}
      </div>
    </Card>
  );
}

/** A card payment's success (spec 000 §8), kept by the server across the page's reload: the spec's
 * message and the new invoice, where the customer looks after paying (just below the title). */
function PaymentSuccess({ message, page }: { message: string; page: PublicDeal }) {
  const invoice = latestInvoice(page.deal);
  return (
    <div
      class="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-emerald-200 bg-emerald-50 px-4 py-3 text-emerald-900 shadow-sm sm:px-5"
      role="status"
      data-testid="payment-success"
    >
      <p class="flex items-start gap-2 font-semibold">
        <CheckIcon class="mt-0.5 h-5 w-5 shrink-0" />
        {message}
      </p>
      {invoice && (
        <a
          href={invoice.href}
          target="_blank"
          rel="noopener"
          class="inline-flex items-center gap-2 rounded-full bg-emerald-700 px-4 py-2 text-sm font-semibold text-white hover:bg-emerald-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
          data-testid="payment-success-invoice"
        >
          <DownloadIcon class="h-4 w-4" />
          {invoice.label}
        </a>
      )}
    </div>
  );
}

export function DealShowPage(
  { page, view, notices = [], backFromBank = false, chat = null }: {
    page: PublicDeal;
    view: DealShowView;
    /** The deal's chat when this viewer may read it on this page (lib/chat/use_cases/page_chat.ts). */
    chat?: PageChat | null;
    /** The flash messages of this session (the route took them): a payment's success is shown in the
     * page with its invoice; the others as the deal page's snackbars (5000 ms). */
    notices?: FlashMessage[];
    /** Back from the bank's page (?payment_intent=…&redirect_status=…): the payment island confirms it
     * on the server and says what became of it, also when nothing is payable any more (paid in the
     * meantime, refused: the money is then refunded). */
    backFromBank?: boolean;
  },
) {
  const { deal, company } = page;
  const paid = view.isCustomer
    ? notices.filter((n) => n.type === "success" && isPaymentSuccess(n.message))
    : [];
  const snackbars = notices.filter((n) => !paid.includes(n));
  const addressee = `${deal.firstname} ${deal.lastname}`.trim();
  // The admin description's placeholders, filled by the server ({{chat}}: this page's partner flag).
  const adminDescription = deal.adminDescription.trim()
    ? fillTemplate(deal.adminDescription, {
      ...templateValuesOf(deal),
      chatAvailable: deal.adminSettings.showChatToPartner,
    })
    : "";
  const photos = deal.photoItems.slice(0, MAX_PHOTOS).map((p) => ({ url: p.url, thumbUrl: p.thumbUrl }));
  const detail = detailOf(deal, company?.vatExemption ?? false);
  return (
    <div class="bg-slate-50 pb-12" data-relation={view.relation}>
      <header class="bg-gradient-to-br from-brand-50 via-white to-white">
        <div class="mx-auto max-w-6xl px-4 pb-6 pt-6 sm:pt-10">
          <div class="flex flex-wrap items-center gap-2 text-sm text-slate-600">
            <span>Devis n°{deal.id}</span>
            <StatusChip status={deal.status} />
          </div>
          <div class="mt-2 flex flex-wrap items-end justify-between gap-3">
            <div class="min-w-0">
              <h1 class="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
                {DEAL_PAGE_TITLE}
              </h1>
              {deal.name && <p class="mt-1 text-slate-700" data-testid="deal-name">{deal.name}</p>}
              {addressee && (
                <p class="mt-1 text-sm text-slate-600" data-testid="addressee">
                  Adressé à <strong class="text-slate-900">{addressee}</strong>
                  {company && (
                    <>
                      {" "}· proposé par <strong class="text-slate-900">{company.name}</strong>
                    </>
                  )}
                </p>
              )}
            </div>
            {view.canEdit && (
              <a
                href={editPath(deal.id)}
                class="inline-flex items-center gap-2 rounded-full border border-slate-300 bg-white px-4 py-2 text-sm font-semibold hover:border-brand-500 hover:text-brand-700"
                data-testid="edit-deal"
              >
                <PencilIcon />
                Modifier le devis
              </a>
            )}
          </div>
          <Facts page={page} />
        </div>
      </header>

      <FlashMessages messages={snackbars} durationMs={5000} />
      <div class="mx-auto max-w-6xl space-y-3 px-4">
        {paid.map((notice) => <PaymentSuccess key={notice.message} message={notice.message} page={page} />)}
        {deal.refusalBanner && (
          <Banner tone={deal.status === "refused_client" ? "warning" : "error"} testId="refused-banner">
            {deal.refusalBanner}
          </Banner>
        )}
        {view.relation === "other_customer" && (
          <Banner tone="warning" testId="linked-elsewhere">
            {CUSTOMER_MESSAGES.linkedElsewhere}{" "}
            Vous pouvez consulter ce devis, mais seul le compte client qui l'a demandé peut le télécharger,
            choisir les cocktails, le refuser ou le régler.
          </Banner>
        )}
      </div>

      {
        /* Phone: the amount and payment first, then the quote, then its documents and the refuse menu.
          Wide screens: the quote on the left, the amount, documents and refuse menu on the right. */
      }
      <div class="mx-auto mt-4 grid max-w-6xl gap-4 px-4 lg:grid-cols-[minmax(0,1fr)_22rem] lg:grid-rows-[auto_1fr]">
        <div class="lg:col-start-2 lg:row-start-1 lg:self-start">
          <PaymentCard page={page} view={view} backFromBank={backFromBank} />
        </div>
        {(view.canDownload || view.canRefuse) && (
          <div class="order-last space-y-4 lg:order-none lg:col-start-2 lg:row-start-2 lg:self-start">
            {view.canDownload && <Documents view={view} />}
            {view.canRefuse && (
              <div
                class="flex flex-wrap items-center justify-between gap-2 px-1 text-sm text-slate-500"
                data-testid="refuse-menu"
              >
                <span>Ce devis ne vous convient pas ?</span>
                <Island component={DealRefusal} props={{ token: deal.token }} />
              </div>
            )}
          </div>
        )}

        <div class="min-w-0 space-y-4 lg:col-start-1 lg:row-span-2 lg:row-start-1">
          {adminDescription && (
            <Card title="Votre prestation" testId="admin-description">
              <RichTextView html={adminDescription} />
            </Card>
          )}
          {deal.description.trim() && (
            <Card
              title={company ? `Le mot de ${company.name}` : "Le mot de votre partenaire"}
              testId="partner-description"
            >
              <RichTextView html={deal.description} />
            </Card>
          )}
          <Card title="Détail du devis" testId="quote-detail">
            <QuoteDetail rows={detail.rows} totals={detail.totals} />
          </Card>
          <CocktailsSection page={page} view={view} />
          {photos.length > 0 && (
            <Card title="En images" testId="photos">
              <Island component={PhotoLightbox} props={{ photos, title: deal.name || DEAL_PAGE_TITLE }} />
            </Card>
          )}
          {deal.map && (
            <Card title="Lieu de la prestation" testId="map">
              <div
                class="overflow-hidden rounded-xl [&_iframe]:block [&_iframe]:h-[300px] [&_iframe]:w-full [&_iframe]:border-0 sm:[&_iframe]:h-[350px]"
                dangerouslySetInnerHTML={{ __html: deal.map }}
              />
            </Card>
          )}
          <DealChatSection
            dealId={deal.id}
            chat={chat}
            loginToken={view.relation === "anonymous" ? deal.token : undefined}
          />
          {company && deal.adminSettings.showPartnerProfileOnDeal && (
            <Card title="Votre partenaire" testId="partner-profile">
              <div class="flex flex-wrap items-center justify-between gap-3">
                <div>
                  <p class="font-bold text-slate-900">{company.name}</p>
                  {company.city && <p class="text-sm text-slate-600">{company.city}</p>}
                </div>
                <a
                  href={`/bar/${company.slug}`}
                  class="inline-flex items-center rounded-full border border-slate-300 px-4 py-2 text-sm font-semibold hover:border-brand-500 hover:text-brand-700"
                >
                  Voir le profil du partenaire
                </a>
              </div>
            </Card>
          )}
        </div>
      </div>
    </div>
  );
}
