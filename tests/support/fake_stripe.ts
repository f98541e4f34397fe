// A local fake of Stripe's HTTP API, for tests that keep the real `stripe` client library in the path
// (lib/integrations/stripe.ts and the webhook edge function point it at this server with
// {host, port, protocol}). It speaks what the client sends and expects:
//   * form-encoded bodies with nested keys (metadata[dealId]=…, automatic_payment_methods[enabled]=true),
//     `Authorization: Bearer sk_test_…` (anything else: 401 as Stripe answers it);
//   * JSON answers shaped like Stripe's objects (payment_intent, refund, charge, list) and errors
//     ({error: {type, code, message, param}} with Stripe's statuses);
//   * the Idempotency-Key header: the same key and parameters replay the first answer (header
//     Idempotent-Replayed: true), the same key with other parameters is an idempotency_error (400);
//   * lists newest first with limit, created[gte|gt|lte|lt], starting_after / ending_before and
//     has_more, as the client's auto-pagination walks them.
// Endpoints: POST /v1/payment_intents, GET /v1/payment_intents/{id}, GET /v1/payment_intents,
// POST /v1/payment_intents/{id}/cancel,
// POST /v1/refunds, GET /v1/refunds/{id}, GET /v1/refunds (charge=, payment_intent=), GET /v1/charges/{id}.
//
// Test controls (methods of the fake, not HTTP): setIntentStatus(), createIntent() (an intent this app
// never created), setRefundStatus(), failNext() (the next N matching calls answer 500 or 429), the
// `pageSize` cap (to make auto-pagination walk several pages), a hook run after a refund is created
// and before the answer leaves (to deliver a webhook in that window), every request recorded, and
// signed webhook deliveries built with stripe.webhooks.generateTestHeaderStringAsync.
import Stripe from "stripe";

export type IntentStatus =
  | "requires_payment_method"
  | "requires_confirmation"
  | "requires_action"
  | "processing"
  | "succeeded"
  | "canceled";

export type RefundStatus = "pending" | "succeeded" | "failed" | "canceled" | "requires_action";

// deno-lint-ignore no-explicit-any
export type Json = Record<string, any>;

export interface FakeIntent extends Json {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_received: number;
  currency: string;
  status: IntentStatus;
  metadata: Record<string, string>;
  created: number;
  latest_charge: string | null;
}

export interface FakeRefund extends Json {
  id: string;
  object: "refund";
  amount: number;
  charge: string;
  payment_intent: string;
  status: RefundStatus;
  metadata: Record<string, string>;
  created: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Json;
  /** The decoded form body (nested keys as objects). */
  params: Json;
  idempotencyKey: string | null;
  authorization: string | null;
  /** The status the fake answered. */
  status: number;
  replayed: boolean;
}

export interface FailureRule {
  remaining: number;
  status: 500 | 429 | 503;
  method?: string;
  path?: RegExp;
}

export type WebhookEventType =
  | "payment_intent.succeeded"
  | "payment_intent.processing"
  | "payment_intent.payment_failed"
  | "payment_intent.canceled"
  | "refund.created"
  | "refund.updated"
  | "refund.failed"
  | "charge.refunded";

export interface FakeStripeOptions {
  secretKey?: string;
  publishableKey?: string;
  webhookSecret?: string;
}

const API_VERSION = "2025-10-29.clover";

function randomId(prefix: string): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `${prefix}_${Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("")}`;
}

const now = () => Math.floor(Date.now() / 1000);

/** Decodes an application/x-www-form-urlencoded body as Stripe does: `a[b][c]=v` → {a: {b: {c: v}}},
 * `a[0]=v` → {a: {"0": v}} (numeric keys kept as object keys, turned into arrays below). */
export function decodeForm(text: string): Json {
  const out: Json = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.split(/\[|\]\[|\]/).filter((p, i) => i === 0 || p !== "");
    let node: Json = out;
    for (let i = 0; i < parts.length - 1; i++) {
      node[parts[i]] ??= {};
      node = node[parts[i]];
    }
    node[parts[parts.length - 1]] = value;
  }
  const arrays = (value: unknown): unknown => {
    if (value && typeof value === "object") {
      const obj = value as Json;
      const keys = Object.keys(obj);
      if (keys.length && keys.every((k, i) => k === String(i))) return keys.map((k) => arrays(obj[k]));
      for (const k of keys) obj[k] = arrays(obj[k]);
    }
    return value;
  };
  return arrays(out) as Json;
}

function stripeError(
  status: number,
  type: string,
  message: string,
  extra: { code?: string; param?: string } = {},
): Response {
  return Response.json({
    error: {
      type,
      message,
      ...(extra.code
        ? { code: extra.code, doc_url: `https://stripe.com/docs/error-codes/${extra.code}` }
        : {}),
      ...(extra.param ? { param: extra.param } : {}),
      request_log_url: `https://dashboard.stripe.com/test/logs/${randomId("req")}`,
    },
  }, { status, headers: { "request-id": randomId("req") } });
}

const missing = (kind: string, id: string, param = "id") =>
  stripeError(404, "invalid_request_error", `No such ${kind}: '${id}'`, { code: "resource_missing", param });

function integerParam(value: unknown): number | null {
  if (typeof value !== "string" || !/^-?\d+$/.test(value)) return null;
  return Number(value);
}

export class FakeStripe {
  readonly secretKey: string;
  readonly publishableKey: string;
  readonly webhookSecret: string;
  readonly intents = new Map<string, FakeIntent>();
  readonly refunds = new Map<string, FakeRefund>();
  readonly charges = new Map<string, Json>();
  readonly requests: RecordedRequest[] = [];
  /** The largest page a list answers (Stripe: 100); lower it to make the client walk several pages. */
  pageSize = 100;
  /** Status of the refunds POST /v1/refunds creates (Stripe: 'succeeded' for most cards, 'pending' for some). */
  refundStatus: RefundStatus = "succeeded";
  /** Run after a refund is created and before the answer leaves (a webhook may arrive in that window). */
  afterRefundCreated: ((refund: FakeRefund) => Promise<void>) | null = null;
  /** A Stripe client used only for webhook signatures (no network). */
  readonly #signer: Stripe;
  #failures: FailureRule[] = [];
  #idempotency = new Map<string, { fingerprint: string; status: number; body: string }>();
  #inFlight = new Set<string>();
  #server: Deno.HttpServer<Deno.NetAddr>;

  private constructor(
    options: FakeStripeOptions,
    server: (fake: FakeStripe) => Deno.HttpServer<Deno.NetAddr>,
  ) {
    this.secretKey = options.secretKey ?? `sk_test_${randomId("fake").slice(5)}`;
    this.publishableKey = options.publishableKey ?? `pk_test_${randomId("fake").slice(5)}`;
    this.webhookSecret = options.webhookSecret ?? `whsec_${randomId("fake").slice(5)}`;
    this.#signer = new Stripe(this.secretKey, { httpClient: Stripe.createFetchHttpClient() });
    this.#server = server(this);
  }

  /** Starts a fake on 127.0.0.1, on a free port. */
  static start(options: FakeStripeOptions = {}): FakeStripe {
    return new FakeStripe(options, (fake) =>
      Deno.serve(
        { hostname: "127.0.0.1", port: 0, onListen: () => {} },
        (request) => fake.#handle(request),
      ));
  }

  get port(): number {
    return this.#server.addr.port;
  }

  /** STRIPE_API_URL for the app and the edge function. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async close(): Promise<void> {
    await this.#server.shutdown();
  }

  // -------------------------------------------------------------------------------------------------
  // Test controls.

  /** The next `times` calls matching `method`/`path` answer `status` (500: api_error; 429: rate_limit). */
  failNext(
    times: number,
    status: 500 | 429 | 503 = 500,
    match: { method?: string; path?: RegExp } = {},
  ): void {
    this.#failures.push({ remaining: times, status, ...match });
  }

  /** Failures still armed. */
  get pendingFailures(): number {
    return this.#failures.reduce((n, f) => n + f.remaining, 0);
  }

  /** What Stripe would do when the customer's card is submitted, declined, or the intent canceled. */
  setIntentStatus(id: string, status: IntentStatus): FakeIntent {
    const intent = this.intents.get(id);
    if (!intent) throw new Error(`fake stripe: no intent ${id}`);
    intent.status = status;
    intent.last_payment_error = null;
    if (status === "succeeded") {
      if (!intent.latest_charge) {
        const charge = {
          id: randomId("ch"),
          object: "charge",
          amount: intent.amount,
          amount_captured: intent.amount,
          amount_refunded: 0,
          captured: true,
          created: now(),
          currency: intent.currency,
          livemode: false,
          metadata: { ...intent.metadata },
          paid: true,
          payment_intent: intent.id,
          refunded: false,
          status: "succeeded",
        };
        this.charges.set(charge.id, charge);
        intent.latest_charge = charge.id;
      }
      intent.amount_received = intent.amount;
    } else if (status === "requires_payment_method") {
      intent.last_payment_error = {
        type: "card_error",
        code: "card_declined",
        decline_code: "generic_decline",
        message: "Your card was declined.",
      };
    } else if (status === "canceled") {
      intent.canceled_at = now();
      intent.cancellation_reason = "requested_by_customer";
    }
    return intent;
  }

  /** An intent made outside the app (the dashboard, another integration): not in payment_intents. */
  createIntent(
    input: { amount: number; metadata?: Record<string, string>; status?: IntentStatus },
  ): FakeIntent {
    const intent = this.#newIntent({
      amount: input.amount,
      currency: "eur",
      metadata: input.metadata ?? {},
      description: "Créé hors de l'application",
    });
    if (input.status) this.setIntentStatus(intent.id, input.status);
    return intent;
  }

  setRefundStatus(id: string, status: RefundStatus): FakeRefund {
    const refund = this.refunds.get(id);
    if (!refund) throw new Error(`fake stripe: no refund ${id}`);
    refund.status = status;
    return refund;
  }

  /** The recorded requests of a method whose path starts with `prefix`. */
  calls(method: string, prefix: string): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && r.path.startsWith(prefix));
  }

  intentsWithMetadata(key: string, value: string): FakeIntent[] {
    return [...this.intents.values()].filter((i) => i.metadata[key] === value);
  }

  refundsOf(intentId: string): FakeRefund[] {
    return [...this.refunds.values()].filter((r) => r.payment_intent === intentId);
  }

  // -------------------------------------------------------------------------------------------------
  // Webhooks.

  /** An event as Stripe sends it, its object a copy of the fake's current object (payment_intent.*:
   * the intent `id`; refund.*: the refund `id`; charge.refunded: the charge `id`), with `override`
   * applied to that copy (an event whose copy says something Stripe no longer holds). */
  event(type: WebhookEventType, id: string, override: Json = {}): Json {
    let object: Json | undefined;
    if (type.startsWith("payment_intent.")) object = this.intents.get(id);
    else if (type.startsWith("refund.")) object = this.refunds.get(id);
    else if (type === "charge.refunded") {
      const charge = this.charges.get(id);
      object = charge && {
        ...charge,
        refunds: {
          object: "list",
          data: [...this.refunds.values()].filter((r) => r.charge === id),
          has_more: false,
          url: `/v1/charges/${id}/refunds`,
        },
      };
    }
    if (!object) throw new Error(`fake stripe: nothing to send a ${type} event about (${id})`);
    return {
      id: randomId("evt"),
      object: "event",
      api_version: API_VERSION,
      created: now(),
      data: { object: structuredClone({ ...object, ...override }) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
  }

  /** A webhook delivery of `event`, signed as Stripe signs it (t=…,v1=HMAC-SHA256 of "t.payload" with
   * the webhook secret), ready to pass to a handler or to POST to the app. `secret`: sign with another
   * secret; `tamper`: change the body after signing; `timestamp`: an old delivery. */
  async delivery(
    event: Json,
    options: { url?: string; secret?: string; tamper?: boolean; timestamp?: number; noSignature?: boolean } =
      {},
  ): Promise<Request> {
    const payload = JSON.stringify(event, null, 2);
    const signature = await this.#signer.webhooks.generateTestHeaderStringAsync({
      payload,
      secret: options.secret ?? this.webhookSecret,
      timestamp: options.timestamp,
      cryptoProvider: Stripe.createSubtleCryptoProvider(),
    });
    const headers = new Headers({
      "content-type": "application/json; charset=utf-8",
      "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
      "cache-control": "no-cache",
    });
    if (!options.noSignature) headers.set("stripe-signature", signature);
    const body = options.tamper ? payload.replace(/"livemode": false/, '"livemode": true') : payload;
    return new Request(options.url ?? "http://localhost:8000/api/webhooks/stripe", {
      method: "POST",
      headers,
      body,
    });
  }

  // -------------------------------------------------------------------------------------------------
  // The HTTP API.

  #newIntent(
    params: { amount: number; currency: string; metadata: Record<string, string>; description?: string },
  ) {
    const id = randomId("pi");
    const intent: FakeIntent = {
      id,
      object: "payment_intent",
      amount: params.amount,
      amount_capturable: 0,
      amount_received: 0,
      automatic_payment_methods: { enabled: true },
      canceled_at: null,
      cancellation_reason: null,
      capture_method: "automatic",
      client_secret: `${id}_secret_${randomId("s").slice(2)}`,
      confirmation_method: "automatic",
      created: now(),
      currency: params.currency,
      description: params.description ?? null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      metadata: params.metadata,
      payment_method: null,
      payment_method_types: ["card"],
      status: "requires_payment_method",
    };
    this.intents.set(id, intent);
    return intent;
  }

  async #handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const method = request.method;
    const text = method === "GET" ? "" : await request.text();
    const params = decodeForm(text);
    const query = decodeForm(url.search.slice(1));
    const idempotencyKey = request.headers.get("idempotency-key");
    const record: RecordedRequest = {
      method,
      path: url.pathname,
      query,
      params,
      idempotencyKey,
      authorization: request.headers.get("authorization"),
      status: 0,
      replayed: false,
    };
    this.requests.push(record);
    const answer = (response: Response) => {
      record.status = response.status;
      return response;
    };

    const auth = record.authorization ?? "";
    if (auth !== `Bearer ${this.secretKey}`) {
      const shown = auth.replace(/^Bearer\s+/, "");
      return answer(stripeError(
        401,
        "invalid_request_error",
        shown
          ? `Invalid API Key provided: ${shown.slice(0, 8)}${"*".repeat(Math.max(0, shown.length - 12))}${
            shown.slice(-4)
          }`
          : "You did not provide an API key.",
      ));
    }

    const rule = this.#failures.find((f) =>
      f.remaining > 0 && (!f.method || f.method === method) && (!f.path || f.path.test(url.pathname))
    );
    if (rule) {
      rule.remaining--;
      this.#failures = this.#failures.filter((f) => f.remaining > 0);
      return answer(
        rule.status === 429
          ? stripeError(
            429,
            "invalid_request_error",
            "Too many requests hit the API too quickly. We recommend an exponential backoff of your requests.",
            { code: "rate_limit" },
          )
          : stripeError(rule.status, "api_error", "An unknown error occurred"),
      );
    }

    if (method === "POST" && idempotencyKey) {
      const fingerprint = `${method} ${url.pathname} ${JSON.stringify(params)}`;
      const seen = this.#idempotency.get(idempotencyKey);
      if (seen) {
        if (seen.fingerprint !== fingerprint) {
          return answer(stripeError(
            400,
            "idempotency_error",
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          ));
        }
        record.replayed = true;
        return answer(
          new Response(seen.body, {
            status: seen.status,
            headers: {
              "content-type": "application/json",
              "idempotency-key": idempotencyKey,
              "idempotent-replayed": "true",
              "request-id": randomId("req"),
            },
          }),
        );
      }
      if (this.#inFlight.has(idempotencyKey)) {
        return answer(stripeError(
          409,
          "idempotency_error",
          "There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): " +
            idempotencyKey + ". Please try again later.",
          { code: "idempotency_key_in_use" },
        ));
      }
      this.#inFlight.add(idempotencyKey);
      let response: Response;
      try {
        response = await this.#route(method, url.pathname, params, query);
      } finally {
        this.#inFlight.delete(idempotencyKey);
      }
      const body = await response.text();
      // Stripe keeps the result of a request that started executing (4xx validation errors too).
      this.#idempotency.set(idempotencyKey, { fingerprint, status: response.status, body });
      return answer(
        new Response(body, {
          status: response.status,
          headers: {
            "content-type": "application/json",
            "idempotency-key": idempotencyKey,
            "request-id": randomId("req"),
          },
        }),
      );
    }
    return answer(await this.#route(method, url.pathname, params, query));
  }

  async #route(method: string, path: string, params: Json, query: Json): Promise<Response> {
    let match: RegExpExecArray | null;
    if (method === "POST" && path === "/v1/payment_intents") return this.#createIntent(params);
    if (method === "GET" && path === "/v1/payment_intents") {
      return this.#list("/v1/payment_intents", [...this.intents.values()], query);
    }
    if (method === "GET" && (match = /^\/v1\/payment_intents\/([^/]+)$/.exec(path))) {
      const intent = this.intents.get(decodeURIComponent(match[1]));
      return intent ? Response.json(intent) : missing("payment_intent", decodeURIComponent(match[1]));
    }
    if (method === "POST" && (match = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path))) {
      const id = decodeURIComponent(match[1]);
      const intent = this.intents.get(id);
      if (!intent) return missing("payment_intent", id);
      // Stripe cancels an intent only while it waits for a payment method, a confirmation or an action.
      if (!["requires_payment_method", "requires_confirmation", "requires_action"].includes(intent.status)) {
        return stripeError(
          400,
          "invalid_request_error",
          `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
          { code: "payment_intent_unexpected_state" },
        );
      }
      return Response.json(this.setIntentStatus(id, "canceled"));
    }
    if (method === "POST" && path === "/v1/refunds") return await this.#createRefund(params);
    if (method === "GET" && path === "/v1/refunds") {
      const all = [...this.refunds.values()].filter((r) =>
        (!query.charge || r.charge === query.charge) &&
        (!query.payment_intent || r.payment_intent === query.payment_intent)
      );
      return this.#list("/v1/refunds", all, query);
    }
    if (method === "GET" && (match = /^\/v1\/refunds\/([^/]+)$/.exec(path))) {
      const refund = this.refunds.get(decodeURIComponent(match[1]));
      return refund ? Response.json(refund) : missing("refund", decodeURIComponent(match[1]));
    }
    if (method === "GET" && (match = /^\/v1\/charges\/([^/]+)$/.exec(path))) {
      const charge = this.charges.get(decodeURIComponent(match[1]));
      return charge ? Response.json(charge) : missing("charge", decodeURIComponent(match[1]));
    }
    return stripeError(404, "invalid_request_error", `Unrecognized request URL (${method}: ${path}).`);
  }

  #createIntent(params: Json): Response {
    const amount = integerParam(params.amount);
    if (params.amount === undefined) {
      return stripeError(400, "invalid_request_error", "Missing required param: amount.", {
        code: "parameter_missing",
        param: "amount",
      });
    }
    if (amount === null || amount < 1) {
      return stripeError(400, "invalid_request_error", "Invalid integer: " + params.amount, {
        code: "parameter_invalid_integer",
        param: "amount",
      });
    }
    if (amount < 50) {
      return stripeError(400, "invalid_request_error", "Amount must be at least €0.50 eur", {
        code: "amount_too_small",
        param: "amount",
      });
    }
    if (typeof params.currency !== "string" || !/^[a-z]{3}$/.test(params.currency)) {
      return stripeError(400, "invalid_request_error", "Missing required param: currency.", {
        code: "parameter_missing",
        param: "currency",
      });
    }
    const metadata = (params.metadata ?? {}) as Record<string, string>;
    const intent = this.#newIntent({
      amount,
      currency: params.currency,
      metadata,
      description: params.description,
    });
    return Response.json(intent);
  }

  async #createRefund(params: Json): Promise<Response> {
    let intent: FakeIntent | undefined;
    if (params.payment_intent) {
      intent = this.intents.get(params.payment_intent);
      if (!intent) return missing("payment_intent", params.payment_intent, "payment_intent");
    } else if (params.charge) {
      const charge = this.charges.get(params.charge);
      if (!charge) return missing("charge", params.charge, "charge");
      intent = this.intents.get(charge.payment_intent);
    } else {
      return stripeError(
        400,
        "invalid_request_error",
        "One of the following params should be provided: charge, payment_intent.",
      );
    }
    if (!intent || intent.status !== "succeeded" || !intent.latest_charge) {
      return stripeError(
        400,
        "invalid_request_error",
        `This PaymentIntent (${intent?.id}) does not have a successful charge to refund.`,
        { code: "charge_not_refundable", param: "payment_intent" },
      );
    }
    const charge = this.charges.get(intent.latest_charge)!;
    const refundable = charge.amount - charge.amount_refunded;
    if (refundable <= 0) {
      return stripeError(400, "invalid_request_error", `Charge ${charge.id} has already been refunded.`, {
        code: "charge_already_refunded",
      });
    }
    const amount = params.amount === undefined ? refundable : integerParam(params.amount);
    if (amount === null || amount < 1) {
      return stripeError(400, "invalid_request_error", `Invalid positive integer`, {
        code: "parameter_invalid_integer",
        param: "amount",
      });
    }
    if (amount > refundable) {
      return stripeError(
        400,
        "invalid_request_error",
        `Refund amount (€${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge (€${
          (refundable / 100).toFixed(2)
        })`,
        { code: "amount_too_large", param: "amount" },
      );
    }
    const refund: FakeRefund = {
      id: randomId("re"),
      object: "refund",
      amount,
      balance_transaction: randomId("txn"),
      charge: charge.id,
      created: now(),
      currency: intent.currency,
      metadata: (params.metadata ?? {}) as Record<string, string>,
      payment_intent: intent.id,
      reason: params.reason ?? null,
      receipt_number: null,
      status: this.refundStatus,
    };
    this.refunds.set(refund.id, refund);
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded >= charge.amount;
    if (this.afterRefundCreated) await this.afterRefundCreated(refund);
    return Response.json(refund);
  }

  #list(url: string, items: Json[], query: Json): Response {
    const created = (query.created ?? {}) as Json;
    const bound = (key: string) => integerParam(created[key]);
    const exact = typeof query.created === "string" ? integerParam(query.created) : null;
    // Newest first, as Stripe lists (ties: the later created first).
    let list = items
      .map((item, index) => ({ item, index }))
      .filter(({ item }) =>
        (exact === null || item.created === exact) &&
        (bound("gte") === null || item.created >= bound("gte")!) &&
        (bound("gt") === null || item.created > bound("gt")!) &&
        (bound("lte") === null || item.created <= bound("lte")!) &&
        (bound("lt") === null || item.created < bound("lt")!)
      )
      .sort((a, b) => b.item.created - a.item.created || b.index - a.index)
      .map(({ item }) => item);
    const limit = Math.min(integerParam(query.limit) ?? 10, 100, this.pageSize);
    if (query.limit !== undefined && (integerParam(query.limit) ?? 0) < 1) {
      return stripeError(400, "invalid_request_error", "Invalid integer: " + query.limit, {
        code: "parameter_invalid_integer",
        param: "limit",
      });
    }
    if (query.starting_after) {
      const index = list.findIndex((i) => i.id === query.starting_after);
      if (index < 0) {
        return missing(
          url.includes("refund") ? "refund" : "payment_intent",
          query.starting_after,
          "starting_after",
        );
      }
      list = list.slice(index + 1);
      return Response.json({
        object: "list",
        data: list.slice(0, limit),
        has_more: list.length > limit,
        url,
      });
    }
    if (query.ending_before) {
      const index = list.findIndex((i) => i.id === query.ending_before);
      if (index < 0) {
        return missing(
          url.includes("refund") ? "refund" : "payment_intent",
          query.ending_before,
          "ending_before",
        );
      }
      list = list.slice(0, index);
      return Response.json({
        object: "list",
        data: list.slice(Math.max(0, list.length - limit)),
        has_more: list.length > limit,
        url,
      });
    }
    return Response.json({ object: "list", data: list.slice(0, limit), has_more: list.length > limit, url });
  }
}
