// The account API (spec 000 §7 Account, 001 §7 PATCH /api/user/update).
import type { Hono } from "hono";
import { AppError } from "../lib/errors.ts";
import { type AppEnv, readBody, requireSession, withTx } from "../lib/http/context.ts";
import { takeFlashes } from "../lib/http/cookies.ts";
import {
  cancelDeletion,
  changeOwnPassword,
  getUser,
  requestDeletion,
  updateProfile,
} from "../lib/accounts/users.ts";
import { PROFILE_INVALID, profileSchema } from "../lib/accounts/rules.ts";
import { parseInput } from "../lib/validation.ts";
import { hashPassword } from "../lib/auth/crypto.ts";

export const PASSWORD_LOCKED_WHILE_IMPERSONATING =
  "Le mot de passe d'un utilisateur ne peut pas être modifié en mode administrateur.";

export function accountRoutes(app: Hono<AppEnv>) {
  app.get("/api/user/get", async (c) => {
    const session = requireSession(c);
    return c.json(await withTx(c, (tx) => getUser(tx, session.user.id, session.impersonatorId !== null)));
  });

  app.patch("/api/user/update", async (c) => {
    const session = requireSession(c);
    const update = parseInput(
      profileSchema(session.user.type, new Date().toISOString().slice(0, 10)),
      await readBody(c),
      PROFILE_INVALID,
    );
    if (update.password && session.impersonatorId) {
      throw new AppError("forbidden", PASSWORD_LOCKED_WHILE_IMPERSONATING);
    }
    const passwordHash = update.password ? await hashPassword(update.password) : null;
    const user = await withTx(c, async (tx) => {
      await updateProfile(tx, session.user.id, update);
      if (passwordHash) await changeOwnPassword(tx, passwordHash, session.idHash);
      return await getUser(tx, session.user.id, session.impersonatorId !== null);
    });
    return c.json(user);
  });

  app.delete("/api/user/delete", async (c) => {
    const session = requireSession(c);
    const user = await withTx(c, async (tx) => {
      await requestDeletion(tx, session.user.id);
      return await getUser(tx, session.user.id, session.impersonatorId !== null);
    });
    await c.var.deps.logger.info("accounts", "Suppression de compte demandée", { userId: session.user.id });
    return c.json(user);
  });

  app.patch("/api/user/delete/cancel", async (c) => {
    const session = requireSession(c);
    return c.json(
      await withTx(c, async (tx) => {
        await cancelDeletion(tx, session.user.id);
        return await getUser(tx, session.user.id, session.impersonatorId !== null);
      }),
    );
  });

  app.get("/api/user/flash-messages", async (c) => {
    try {
      return c.json(await takeFlashes(c));
    } catch {
      return c.json([]);
    }
  });
}
