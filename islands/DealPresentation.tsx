// The 'Présentation' tab of a deal (spec 001 §2.3), for an admin or the deal's partner. The deal page
// renders it as its own island (components/deals/detail/PresentationSlot.tsx).
//
// Props (JSON-safe):
//   deal  DealPayload — the deal as GET /api/deal/get/{id} answers it for the viewer
//         (lib/deals/payload.ts): adminDescription, description, map (the iframe the server wrote),
//         photoItems, adminSettings.disableQuoteEdits, and what the admin description's placeholders
//         are filled from (properties, calculations, settings, editedAt).
//   role  "Admin" | "Company" — who looks.
// Between islands: after each save this island dispatches the window event "deal:updated"
// ({deal, source}, components/deals/presentation/events.ts), and it takes the deal any other island
// announces the same way (e.g. the admin settings tab locking edits). Descriptions being edited keep
// their unsaved text.
//
// What it shows:
//   - the admin description: formatted, placeholders filled (lib/deals/template.ts), read-only for
//     the partner; an admin edits it with the rich-text editor, with a preview toggle and a save
//     button ('Description admin sauvegardée avec succès !');
//   - the partner's description, headed 'Description du partenaire' for an admin and 'Votre
//     description' for a partner ('Description sauvegardée avec succès !');
//   - the photo gallery (upload, drag to reorder, delete) and the Google Maps embed.
// While adminSettings.disableQuoteEdits is on, a partner sees all of it read-only (the server refuses
// the changes too); an admin always edits.
import { useEffect, useRef, useState } from "react";
import type { ComponentChildren } from "preact";
import type { DealPayload } from "../lib/deals/payload.ts";
import { DEAL_MESSAGES } from "../lib/deals/rules.ts";
import { PLACEHOLDERS } from "../lib/deals/template.ts";
import { PHOTOS_MAX_PER_DEAL } from "../lib/deals/photos.ts";
import { Notice, type NoticeState } from "../components/ui/Notice.tsx";
import { RichTextView } from "../components/richtext/RichTextView.tsx";
import { DescriptionEditor } from "../components/deals/presentation/DescriptionEditor.tsx";
import { PhotoGallery, type PhotosState } from "../components/deals/presentation/PhotoGallery.tsx";
import { MapField } from "../components/deals/presentation/MapField.tsx";
import { filledAdminDescription } from "../components/deals/presentation/template_values.ts";
import { announceDeal, onDealAnnounced } from "../components/deals/presentation/events.ts";

export interface DealPresentationProps {
  deal: DealPayload;
  role: "Admin" | "Company";
}

const SOURCE = "DealPresentation";

/** Spec 001 §8: toasts of 2500 ms on description saves. */
const PRESENTATION_TOAST_MS = 2500;

const PRESENTATION_TEXT = {
  adminDescription: "Description admin",
  adminDescriptionForPartner: "Informations de l'équipe",
  adminDescriptionSaved: "Description admin sauvegardée avec succès !",
  partnerDescriptionForAdmin: "Description du partenaire",
  partnerDescriptionForPartner: "Votre description",
  descriptionSaved: "Description sauvegardée avec succès !",
  photos: "Photos",
  map: "Carte (Google Maps)",
  noAdminDescription: "Aucune information de l'équipe pour le moment.",
  noDescription: "Aucune description pour le moment.",
} as const;

function Section({ title, aside, children, testId }: {
  title: string;
  aside?: ComponentChildren;
  children: ComponentChildren;
  testId?: string;
}) {
  return (
    <section class="rounded-xl border border-slate-200 bg-white p-4 sm:p-5" data-testid={testId}>
      <div class="mb-4 flex flex-wrap items-baseline justify-between gap-2">
        <h2 class="text-lg font-semibold">{title}</h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

function PlaceholderHelp() {
  return (
    <details class="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-600">
      <summary class="cursor-pointer font-medium">Variables remplacées à l'affichage</summary>
      <ul class="mt-2 grid gap-1 sm:grid-cols-2">
        {Object.entries(PLACEHOLDERS).map(([token, meaning]) => (
          <li key={token}>
            <code class="rounded bg-white px-1 font-mono text-xs text-slate-800">{token}</code> : {meaning}
          </li>
        ))}
      </ul>
    </details>
  );
}

export default function DealPresentation({ deal: initial, role }: DealPresentationProps) {
  const [deal, setDeal] = useState(initial);
  const [adminDraft, setAdminDraft] = useState(initial.adminDescription);
  const [descriptionDraft, setDescriptionDraft] = useState(initial.description);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const current = useRef(initial);

  /** A deal from elsewhere: taken as is; a draft left untouched follows it. */
  const take = (next: DealPayload) => {
    const before = current.current;
    current.current = next;
    setDeal(next);
    setAdminDraft((d) => (d === before.adminDescription ? next.adminDescription : d));
    setDescriptionDraft((d) => (d === before.description ? next.description : d));
  };
  useEffect(() => onDealAnnounced(initial.id, SOURCE, take), [initial.id]);

  const isAdmin = role === "Admin";
  const locked = deal.adminSettings.disableQuoteEdits;
  const editable = isAdmin || !locked;
  const notify = (n: NoticeState) => setNotice({ ...n, key: Date.now() });

  /** Our own save: the server's answer, announced to the page's other islands. */
  const update = (next: DealPayload) => {
    current.current = next;
    setDeal(next);
    announceDeal(next, SOURCE);
  };
  const onPhotos = (photos: PhotosState) => update({ ...current.current, ...photos });

  return (
    <div class="space-y-6" data-testid="deal-presentation">
      <Notice notice={notice} onDone={() => setNotice(null)} durationMs={PRESENTATION_TOAST_MS} />
      {!isAdmin && locked && (
        <div
          role="status"
          class="flex flex-wrap items-center gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
        >
          <span>{DEAL_MESSAGES.locked}</span>
          <span class="rounded-full bg-amber-200 px-2 py-0.5 text-xs font-semibold">
            {DEAL_MESSAGES.editsDisabledChip}
          </span>
        </div>
      )}

      <Section
        title={isAdmin ? PRESENTATION_TEXT.adminDescription : PRESENTATION_TEXT.adminDescriptionForPartner}
        testId="admin-description"
      >
        {isAdmin
          ? (
            <DescriptionEditor
              deal={deal}
              field="adminDescription"
              label={PRESENTATION_TEXT.adminDescription}
              savedMessage={PRESENTATION_TEXT.adminDescriptionSaved}
              draft={adminDraft}
              onDraft={setAdminDraft}
              onSaved={(next) => {
                setAdminDraft(next.adminDescription);
                update(next);
              }}
              notify={notify}
              preview={(html) => filledAdminDescription(deal, html)}
              help={<PlaceholderHelp />}
            />
          )
          : (
            <RichTextView
              html={filledAdminDescription(deal)}
              empty={PRESENTATION_TEXT.noAdminDescription}
              testId="admin-description-view"
            />
          )}
      </Section>

      <Section
        title={isAdmin
          ? PRESENTATION_TEXT.partnerDescriptionForAdmin
          : PRESENTATION_TEXT.partnerDescriptionForPartner}
        testId="partner-description"
      >
        {editable
          ? (
            <DescriptionEditor
              deal={deal}
              field="description"
              label={isAdmin
                ? PRESENTATION_TEXT.partnerDescriptionForAdmin
                : PRESENTATION_TEXT.partnerDescriptionForPartner}
              savedMessage={PRESENTATION_TEXT.descriptionSaved}
              draft={descriptionDraft}
              onDraft={setDescriptionDraft}
              onSaved={(next) => {
                setDescriptionDraft(next.description);
                update(next);
              }}
              notify={notify}
            />
          )
          : (
            <RichTextView
              html={deal.description}
              empty={PRESENTATION_TEXT.noDescription}
              testId="partner-description-view"
            />
          )}
      </Section>

      <Section
        title={PRESENTATION_TEXT.photos}
        aside={<span class="text-sm text-slate-500">{deal.photoItems.length} / {PHOTOS_MAX_PER_DEAL}</span>}
        testId="photos"
      >
        <PhotoGallery
          dealId={deal.id}
          items={deal.photoItems}
          editable={editable}
          onChange={onPhotos}
          notify={notify}
        />
      </Section>

      <Section title={PRESENTATION_TEXT.map} testId="map">
        <MapField key={deal.map} deal={deal} editable={editable} onSaved={update} notify={notify} />
      </Section>
    </div>
  );
}
