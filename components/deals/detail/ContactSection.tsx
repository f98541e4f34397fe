// 'Coordonnées' (spec 001 §2.2): the customer record, with the contact the request gave in brackets
// beside it. What a partner may not see is absent from the deal the server answered (masked in the
// database): such rows are simply not shown. Admins see everything, with the eye icons that say
// what the partner may see.
import type { ComponentChildren } from "preact";
import { displayPhone } from "../../../lib/accounts/rules.ts";
import { useDeal } from "./controller.tsx";
import { PartnerVisibility } from "./PartnerVisibility.tsx";
import { Section } from "./ui.tsx";

const filled = (v: string | null | undefined): v is string => typeof v === "string" && v.trim() !== "";

function Row({ label, value, source, eye, testId }: {
  label: string;
  value: string | null | undefined;
  source?: string | null;
  eye?: ComponentChildren;
  testId: string;
}) {
  const { isAdmin } = useDeal();
  const main = filled(value) ? value : filled(source) ? source : null;
  const bracket = filled(value) && filled(source) ? source : null;
  // A partner's masked details are absent: nothing to show. Admins see empty rows as "—".
  if (!main && !isAdmin) return null;
  return (
    <div data-testid={testId}>
      <dt class="flex items-center gap-1 text-xs font-medium uppercase tracking-wide text-slate-500">
        {label}
        {eye}
      </dt>
      <dd class="mt-0.5 break-words text-sm text-slate-900">
        {main ?? "—"}
        {bracket && <span class="ml-1 text-slate-500">({bracket})</span>}
      </dd>
    </div>
  );
}

export function ContactSection() {
  const { deal, isAdmin } = useDeal();
  const customer = deal.customer;
  const shows = deal.adminSettings;
  const address = [customer?.address1, customer?.address2].filter(filled).join(", ");
  return (
    <Section id="deal-contact" title="Coordonnées" testId="deal-contact">
      {!customer && (
        <p class="mb-3 text-xs text-slate-500">
          Aucun compte client n'est lié à ce devis : coordonnées données lors de la demande.
        </p>
      )}
      <dl class="grid gap-x-4 gap-y-3 sm:grid-cols-2">
        <Row label="Prénom" value={customer?.firstname} source={deal.firstname} testId="contact-firstname" />
        <Row label="Nom" value={customer?.lastname} source={deal.lastname} testId="contact-lastname" />
        <Row
          label="Email"
          value={customer?.email}
          source={deal.email}
          eye={<PartnerVisibility setting="showEmailForPartner" />}
          testId="contact-email"
        />
        <Row
          label="Téléphone"
          value={displayPhone(customer?.phone ?? null)}
          source={displayPhone(deal.phone)}
          eye={<PartnerVisibility setting="showPhoneForPartner" />}
          testId="contact-phone"
        />
      </dl>
      {!isAdmin && !(shows.showEmailForPartner && shows.showPhoneForPartner && shows.showAddressForPartner) &&
        (
          <p class="mt-3 text-xs text-slate-500" data-testid="contact-masked">
            Les autres coordonnées du client ne sont pas communiquées pour ce devis.
          </p>
        )}
      {(isAdmin || customer?.name || customer?.siren || address || customer?.city) && (
        <>
          <h4 class="mt-4 flex items-center gap-1 text-sm font-semibold text-slate-700">
            Société et adresse
            <PartnerVisibility setting="showAddressForPartner" />
          </h4>
          <dl class="mt-2 grid gap-x-4 gap-y-3 sm:grid-cols-2">
            <Row label="Société" value={customer?.name} testId="contact-company" />
            <Row label="SIREN" value={customer?.siren} testId="contact-siren" />
            <Row label="Adresse" value={address} testId="contact-address" />
            <Row label="Code postal" value={customer?.zipcode} testId="contact-zipcode" />
            <Row label="Ville" value={customer?.city} testId="contact-city" />
          </dl>
        </>
      )}
    </Section>
  );
}
