// The public quote request form (/demande-de-devis): the event, the place, the bar and the cocktails,
// the contact, then the instant estimate. Checked in the browser with the server's own messages
// (components/deals/request/rules.ts) before POST /api/deal/request; the server checks everything
// again and its field messages (422) or its limit (429) are shown as they come. Without JavaScript
// the same form posts to /demande-de-devis and the page answers. Its fields and sections are in
// components/deals/request/.
import { useState } from "react";
import { ApiError, submitOnce } from "../components/ui/api.ts";
import { BUTTON_PRIMARY, fieldId, FormNotice } from "../components/form/Field.tsx";
import {
  EMPTY_REQUEST,
  REQUEST_MESSAGES,
  requestErrors,
  type RequestField,
  type RequestOutcome,
  requestPayload,
  type RequestValues,
} from "../components/deals/request/rules.ts";
import { Estimate } from "../components/deals/request/Estimate.tsx";
import { estimateFromJson, type RequestEstimateJson } from "../lib/deals/estimate.ts";
import { FORM } from "../components/deals/request/fields.tsx";
import { IDEMPOTENCY_FIELD } from "../lib/idempotency/rules.ts";
import {
  BarSection,
  ContactSection,
  EventSection,
  PlaceSection,
} from "../components/deals/request/sections.tsx";

export interface DealRequestFormProps {
  /** The server's date (YYYY-MM-DD): the earliest service date. */
  today: string;
  /** Suggestions for the city field. */
  cities: string[];
  initial?: Partial<RequestValues>;
  /** The server's answer to a post without JavaScript. */
  errors?: Partial<Record<string, string>>;
  formError?: string;
  outcome?: RequestOutcome | null;
  /** The Idempotency-Key of a post without JavaScript (a hidden field, rendered by the server). */
  idempotencyKey?: string;
}

type Errors = Partial<Record<string, string>>;

export default function DealRequestForm(props: DealRequestFormProps) {
  const [values, setValues] = useState<RequestValues>({ ...EMPTY_REQUEST, ...props.initial });
  const [errors, setErrors] = useState<Errors>(props.errors ?? {});
  const [formError, setFormError] = useState(props.formError ?? "");
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<RequestOutcome | null>(props.outcome ?? null);
  const [sent, setSent] = useState<RequestValues>(values);

  const set = <K extends RequestField>(name: K, value: RequestValues[K]) => {
    setValues((v) => ({ ...v, [name]: value }));
    // A message about this field no longer applies once it is edited.
    if (errors[name]) {
      setErrors((e) => {
        const { [name]: _gone, ...rest } = e;
        return rest;
      });
    }
  };

  const focusFirst = (found: Errors) => {
    const first = Object.keys(found)[0];
    if (!first) return;
    setTimeout(() => {
      const el = document.getElementById(fieldId(FORM, first)) ??
        document.querySelector<HTMLElement>(`[name="${first}"]`);
      el?.focus();
      el?.scrollIntoView({ block: "center", behavior: "smooth" });
    }, 0);
  };

  /** Brings the top of the form (its message, or the estimate) into view. */
  const toTop = () =>
    setTimeout(() => document.getElementById(`${FORM}-top`)?.scrollIntoView({ behavior: "smooth" }), 0);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const found = requestErrors(values, props.today);
    setErrors(found);
    if (Object.keys(found).length) {
      setFormError(REQUEST_MESSAGES.form);
      return focusFirst(found);
    }
    setBusy(true);
    setFormError("");
    try {
      const answer = await submitOnce<{ results: { token: string; estimate: RequestEstimateJson } }>(
        "/api/deal/request",
        requestPayload(values),
      );
      setSent(values);
      setOutcome({ token: answer.results.token, estimate: estimateFromJson(answer.results.estimate) });
      toTop();
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) {
        const fields = error.body.errors ?? {};
        setErrors(fields);
        setFormError(
          error.status === 429
            ? error.body.message ?? REQUEST_MESSAGES.tooMany
            : error.body.message ?? REQUEST_MESSAGES.form,
        );
        if (Object.keys(fields).length) focusFirst(fields);
        else toTop();
      } else {
        setFormError(REQUEST_MESSAGES.unexpected);
        toTop();
      }
    } finally {
      setBusy(false);
    }
  };

  const restart = () => {
    const { firstname, lastname, email, phone, consent } = sent;
    setValues({ ...EMPTY_REQUEST, firstname, lastname, email, phone, consent });
    setErrors({});
    setFormError("");
    setOutcome(null);
    toTop();
  };

  if (outcome) {
    return (
      <div id={`${FORM}-top`} class="scroll-mt-4">
        <Estimate outcome={outcome} values={sent} onRestart={restart} />
      </div>
    );
  }

  const form = { values, errors, set };

  return (
    <form
      id={`${FORM}-top`}
      method="post"
      action="/demande-de-devis"
      noValidate
      onSubmit={submit}
      class="scroll-mt-4 space-y-5"
      data-testid="deal-request-form"
    >
      {formError && <FormNotice type="error" testId="form-error">{formError}</FormNotice>}
      {props.idempotencyKey && <input type="hidden" name={IDEMPOTENCY_FIELD} value={props.idempotencyKey} />}

      <EventSection form={form} today={props.today} />
      <PlaceSection form={form} cities={props.cities} />
      <BarSection form={form} />
      <ContactSection form={form} />

      <div class="flex flex-col items-stretch gap-2 sm:flex-row sm:items-center sm:gap-4">
        <button
          type="submit"
          disabled={busy}
          class={`${BUTTON_PRIMARY} py-3 text-base`}
          data-testid="request-submit"
        >
          {busy ? "Envoi en cours…" : "Envoyer ma demande"}
        </button>
        <p class="text-center text-xs text-slate-500 sm:text-left">
          Estimation immédiate, gratuite et sans engagement.
        </p>
      </div>
    </form>
  );
}
