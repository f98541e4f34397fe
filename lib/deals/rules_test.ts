// Every cell of the transition table: each action, from each status, for each role, locked or not.
import { assertEquals } from "../../tests/support/assert.ts";
import { settingsOf } from "./payload.ts";
import {
  DEAL_MESSAGES,
  DEAL_STATUSES,
  type DealAction,
  type DealStatus,
  depositOffered,
  depositPercentage,
  durationLabel,
  partnerStatusChoices,
  reasonsFor,
  refusalBanner,
  type Role,
  START_TIMES,
  transition,
  validateCocktailList,
} from "./rules.ts";

const ROLES: Role[] = ["Admin", "Company", "Customer", "System"];

/** Expected destination, by action → role → from-status; absent means refused. */
const ALLOWED: Record<
  Exclude<DealAction, "set_status">,
  Partial<Record<Role, Partial<Record<DealStatus, DealStatus>>>>
> = {
  send_to_partner: { Admin: { start: "new" } },
  validate: {
    Admin: { new: "send", pending: "edited" },
    Company: { new: "send", pending: "edited" },
  },
  edit: {
    Admin: {
      start: "start",
      new: "new",
      pending: "pending",
      send: "pending",
      edited: "pending",
      accepted: "accepted",
      pay_partial: "pay_partial",
      pay_total: "pay_total",
      win: "win",
      refused: "refused",
      refused_client: "refused_client",
      refused_partner: "refused_partner",
    },
    Company: { new: "new", pending: "pending", send: "pending", edited: "pending" },
  },
  accept: { Admin: { send: "accepted", edited: "accepted" } },
  pay_deposit: {
    Admin: { send: "pay_partial", edited: "pay_partial", accepted: "pay_partial" },
    System: { send: "pay_partial", edited: "pay_partial", accepted: "pay_partial" },
  },
  pay_balance: { Admin: { pay_partial: "pay_total" }, System: { pay_partial: "pay_total" } },
  pay_total: {
    Admin: { send: "pay_total", edited: "pay_total", accepted: "pay_total" },
    System: { send: "pay_total", edited: "pay_total", accepted: "pay_total" },
  },
  refuse: {
    Admin: {
      start: "refused_partner",
      new: "refused_partner",
      pending: "refused_partner",
      send: "refused_partner",
      edited: "refused_partner",
      accepted: "refused_partner",
    },
    Company: {
      new: "refused_partner",
      pending: "refused_partner",
      send: "refused_partner",
      edited: "refused_partner",
    },
    Customer: {
      start: "refused_client",
      new: "refused_client",
      pending: "refused_client",
      send: "refused_client",
      edited: "refused_client",
    },
  },
};

/** Actions a locked deal refuses to a partner (admins are never locked out). */
const LOCKABLE: DealAction[] = ["edit", "refuse"];

Deno.test("the transition table, cell by cell (unlocked)", () => {
  for (
    const [action, byRole] of Object.entries(ALLOWED) as [
      Exclude<DealAction, "set_status">,
      (typeof ALLOWED)["edit"],
    ][]
  ) {
    for (const role of ROLES) {
      for (const from of DEAL_STATUSES) {
        const expected = byRole[role]?.[from];
        const result = transition(action, { from, role, locked: false });
        assertEquals(result.ok ? result.to : null, expected ?? null, `${action} by ${role} from ${from}`);
      }
    }
  }
});

Deno.test("a locked deal refuses a partner's edits and refusal, never an admin's", () => {
  for (const action of LOCKABLE) {
    for (const from of DEAL_STATUSES) {
      const partner = transition(action, { from, role: "Company", locked: true });
      assertEquals(partner.ok, false, `${action} by a partner from ${from}`);
      if (!partner.ok && ALLOWED[action as "edit"].Company?.[from]) {
        assertEquals(partner.error, DEAL_MESSAGES.locked);
      }
      const admin = transition(action, { from, role: "Admin", locked: true });
      assertEquals(admin.ok, !!ALLOWED[action as "edit"].Admin?.[from], `${action} by an admin from ${from}`);
    }
  }
  // Validation is not an edit: a locked deal can still be validated by its partner.
  assertEquals(transition("validate", { from: "new", role: "Company", locked: true }), {
    ok: true,
    to: "send",
  });
});

Deno.test("an admin refusing with a reason shown to the customer sets refused_client", () => {
  assertEquals(
    transition("refuse", { from: "send", role: "Admin", locked: false, reasonForCustomer: true }),
    {
      ok: true,
      to: "refused_client",
    },
  );
});

Deno.test("direct status change: admins only, any status to any other", () => {
  for (const from of DEAL_STATUSES) {
    for (const target of DEAL_STATUSES) {
      for (const role of ROLES) {
        const result = transition("set_status", { from, role, locked: false, target });
        const expected = role === "Admin" && target !== from;
        assertEquals(result.ok, expected, `${role} ${from} → ${target}`);
      }
    }
  }
  assertEquals(
    transition("set_status", { from: "new", role: "Admin", locked: false, target: "bogus" as DealStatus }).ok,
    false,
  );
});

Deno.test("refused errors name the status in French", () => {
  const result = transition("accept", { from: "new", role: "Admin", locked: false });
  assertEquals(result, {
    ok: false,
    error: "Cette action n'est pas possible pour un devis au statut « Nouvelle demande ».",
  });
  assertEquals(transition("accept", { from: "send", role: "Company", locked: false }), {
    ok: false,
    error: DEAL_MESSAGES.notAllowed,
  });
});

Deno.test("the partner's status dialog offers only its own moves", () => {
  assertEquals(partnerStatusChoices("new", false), ["send", "refused_partner"]);
  assertEquals(partnerStatusChoices("pending", false), ["edited", "refused_partner"]);
  assertEquals(partnerStatusChoices("send", false), ["refused_partner"]);
  assertEquals(partnerStatusChoices("send", true), []);
  assertEquals(partnerStatusChoices("accepted", false), []);
});

Deno.test("refusal reasons by role, and the banner's wording", () => {
  assertEquals(reasonsFor("Customer").map((r) => r.value), [
    "other_provider",
    "other_activity",
    "budget",
    "event_cancelled",
    "event_postponed",
    "client_other",
  ]);
  assertEquals(reasonsFor("Company").every((r) => r.forPartner), true);
  assertEquals(reasonsFor("Admin").length > reasonsFor("Company").length, true);
  assertEquals(
    refusalBanner("refused_client", "budget"),
    "Devis refusé par le client : Le budget est trop élevé",
  );
  assertEquals(
    refusalBanner("refused_partner", "partner_unavailable"),
    "Devis refusé par le partenaire : Partenaire indisponible à cette date",
  );
  assertEquals(refusalBanner("send", "budget"), null);
});

Deno.test("deposit: offered unless explicitly off, 35 % when unset", () => {
  assertEquals(depositOffered({}), true);
  assertEquals(depositOffered({ hasDeposit: false }), false);
  assertEquals(depositPercentage({}), 35);
  assertEquals(depositPercentage({ depositPercentage: 30 }), 30);
  assertEquals(depositPercentage({ depositPercentage: 0 }), 35);
});

Deno.test("option lists: durations and start times", () => {
  assertEquals(durationLabel(90), "1h30");
  assertEquals(durationLabel(600), "+ de 8h00");
  assertEquals(START_TIMES[0], "08:00");
  assertEquals(START_TIMES[START_TIMES.length - 1], "00:00");
  assertEquals(START_TIMES.length, 33);
});

Deno.test("cocktail list validation: its four outcomes", () => {
  const sizes = { signature: 4, classic: 0, mocktail: 2 };
  assertEquals(
    validateCocktailList({ cocktailListType: null, customCocktails: [] }, sizes, []).type,
    "no_list_selected",
  );
  assertEquals(
    validateCocktailList({ cocktailListType: "classic", customCocktails: [] }, sizes, []).type,
    "no_cocktails",
  );
  assertEquals(
    validateCocktailList({ cocktailListType: "creation", customCocktails: [] }, sizes, []).type,
    "incomplete_creation",
  );
  assertEquals(
    validateCocktailList(
      { cocktailListType: "creation", customCocktails: [{ id: "c1", name: "A", description: "B" }] },
      sizes,
      [],
    ).type,
    "validation_success",
  );
  assertEquals(validateCocktailList({ cocktailListType: "signature", customCocktails: [] }, sizes, ["s1"]), {
    type: "validation_success",
    message: "Votre liste de cocktails est prête : vous pouvez valider votre disponibilité.",
    cocktailListType: "signature",
    selectedCocktails: ["s1"],
  });
});

Deno.test("a deal stored without hasDeposit shows the deposit the server offers (spec 000 §9)", () => {
  assertEquals(settingsOf({}).hasDeposit, true);
  assertEquals(settingsOf({ hasDeposit: false }).hasDeposit, false);
  assertEquals(settingsOf({ hasDeposit: true, depositPercentage: 40 }).depositPercentage, 40);
  assertEquals(settingsOf({}).hasDeposit, depositOffered({}));
});
