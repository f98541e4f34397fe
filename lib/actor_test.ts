import { assertEquals } from "../tests/support/assert.ts";
import { ANONYMOUS, requireRole, requireSignedIn, systemActor, userActor } from "./actor.ts";
import { AppError } from "./errors.ts";
import type { UserType } from "./accounts/rules.ts";

const user = (type: UserType, impersonatorId: string | null = null) =>
  userActor(
    { id: `${type}-id`, type, firstname: "A", lastname: "B", name: null, email: "a@example.fr" },
    "hash",
    impersonatorId,
  );

function failure(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("no error thrown");
}

Deno.test("requireRole: 401 for anonymous visitors and the system, 403 for another type", () => {
  for (const actor of [ANONYMOUS, systemActor("job")]) {
    assertEquals(failure(() => requireRole(actor, "Admin")).code, "unauthenticated");
    assertEquals(
      failure(() => requireRole(actor, "Admin", { loginMessage: "Connectez-vous." })),
      { code: "unauthenticated", message: "Connectez-vous." },
    );
    assertEquals(failure(() => requireSignedIn(actor)).code, "unauthenticated");
  }
  assertEquals(failure(() => requireRole(user("Customer"), ["Admin", "Company"])), {
    code: "forbidden",
    message: "Vous n'avez pas accès à cette page.",
  });
  assertEquals(failure(() => requireRole(user("Company"), "Admin", { message: "Non." })), {
    code: "forbidden",
    message: "Non.",
  });
});

Deno.test("requireRole: the allowed types pass, narrowed; notImpersonating refuses an impersonated user", () => {
  const admin = requireRole(user("Admin"), ["Admin", "Company"]);
  assertEquals(admin.user.type, "Admin");
  assertEquals(requireRole(user("Customer"), "Customer").user.id, "Customer-id");
  assertEquals(requireRole(user("Admin", "other-admin"), "Admin").impersonatorId, "other-admin");
  assertEquals(
    failure(() =>
      requireRole(user("Admin", "other-admin"), "Admin", { notImpersonating: true, message: "Non." })
    ),
    { code: "forbidden", message: "Non." },
  );
  assertEquals(requireSignedIn(user("Customer")).user.type, "Customer");
});
