// The admin's eye icons (spec 001 §2.2): which customer details the partner may see, bound to the
// deal's adminSettings flags and switched with PATCH adminSettings. Partners never see them.
import type { AdminSettingKey } from "../../../lib/deals/rules.ts";
import { DEAL_MESSAGES } from "../../../lib/deals/rules.ts";
import { TOAST_MS, useDeal } from "./controller.tsx";
import { dealApi } from "./requests.ts";
import { IconButton } from "./ui.tsx";
import { useState } from "react";

export type VisibilityKey = Extract<
  AdminSettingKey,
  "showServiceAddress" | "showEmailForPartner" | "showPhoneForPartner" | "showAddressForPartner"
>;

const WHAT: Record<VisibilityKey, string> = {
  showServiceAddress: "l'adresse précise du service",
  showEmailForPartner: "l'email du client",
  showPhoneForPartner: "le téléphone du client",
  showAddressForPartner: "la société, le SIREN et l'adresse du client",
};

export function PartnerVisibility({ setting }: { setting: VisibilityKey }) {
  const { deal, isAdmin, run } = useDeal();
  const [busy, setBusy] = useState(false);
  if (!isAdmin) return null;
  const visible = deal.adminSettings[setting];
  const label = visible
    ? `Le partenaire voit ${WHAT[setting]} (cliquer pour masquer)`
    : `Masqué au partenaire : ${WHAT[setting]} (cliquer pour montrer)`;
  const toggle = async () => {
    setBusy(true);
    await run(() => dealApi.patch(deal.id, { adminSettings: { [setting]: !visible } }), {
      error: DEAL_MESSAGES.saveError,
      success: visible
        ? `Le partenaire ne voit plus ${WHAT[setting]}.`
        : `Le partenaire voit désormais ${WHAT[setting]}.`,
      durationMs: TOAST_MS,
      statusLink: false,
    });
    setBusy(false);
  };
  return (
    <IconButton
      icon={visible ? "eye" : "eyeOff"}
      label={label}
      pressed={visible}
      tone={visible ? "ok" : "plain"}
      disabled={busy}
      onClick={toggle}
      testId={`visibility-${setting}`}
    />
  );
}
