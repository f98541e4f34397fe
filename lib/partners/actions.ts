// Use cases of partner applications: a bartending company applies ('Devenir partenaire'); an admin
// reads the applications and turns one into a partner account, or refuses it.
import { type Actor, requireRole, systemActor, transactionAs } from "../actor.ts";
import type { Deps } from "../deps.ts";
import type { Client } from "../auth/actions.ts";
import { AppError } from "../errors.ts";
import { parseInput } from "../validation.ts";
import { enforceLimit } from "../limits/limiter.ts";
import { enqueueEmail } from "../mail/outbox.ts";
import { partnerInvitationEmail } from "../mail/templates.ts";
import { sealSecrets } from "../mail/secrets.ts";
import { emailTaken, insertUser, isActiveAdmin, phoneTaken } from "../accounts/store.ts";
import { issueResetToken } from "../auth/store.ts";
import {
  APPLICATION_ALREADY_DECIDED,
  APPLICATION_EMAIL_TAKEN,
  APPLICATION_INVALID,
  APPLICATION_PHONE_TAKEN,
  applicationSchema,
  INVITATION_TTL_MS,
  TOO_MANY_APPLICATIONS,
} from "./rules.ts";
import {
  type ApplicationRow,
  decideApplication,
  insertApplication,
  listApplications,
  lockApplication,
} from "./store.ts";

const APPLICATIONS_PER_CLIENT = { max: 5, windowSeconds: 3600 };

export async function submitApplication(
  deps: Deps,
  actor: Actor,
  client: Client,
  body: unknown,
): Promise<void> {
  const application = parseInput(applicationSchema(), body, APPLICATION_INVALID, { multiLine: ["message"] });
  await enforceLimit(deps.db, `apply:${client.ip}`, APPLICATIONS_PER_CLIENT, TOO_MANY_APPLICATIONS);
  await transactionAs(deps.db, actor, (tx) => insertApplication(tx, application));
  await deps.logger.info("partners", "Nouvelle candidature partenaire", { company: application.companyName });
}

export async function listPartnerApplications(deps: Deps, actor: Actor): Promise<ApplicationRow[]> {
  const admin = requireRole(actor, "Admin", { notImpersonating: true });
  return await transactionAs(deps.db, admin, (tx) => listApplications(tx));
}

/** Creates the partner account (type Company, no password yet) and emails it a link to choose one. */
export async function acceptApplication(deps: Deps, actor: Actor, id: string): Promise<string> {
  const admin = requireRole(actor, "Admin", { notImpersonating: true });
  // Accounts and their credentials belong to the auth server: the system acts, after checking in the
  // database that the requester is still an admin.
  const { userId, email, link } = await transactionAs(deps.db, systemActor("auth"), async (tx) => {
    if (!(await isActiveAdmin(tx, admin.user.id))) throw new AppError("forbidden");
    const application = await lockApplication(tx, id);
    if (!application) throw new AppError("not_found", "Candidature introuvable.");
    if (application.status !== "pending") throw new AppError("conflict", APPLICATION_ALREADY_DECIDED);
    if (await emailTaken(tx, application.email)) throw new AppError("conflict", APPLICATION_EMAIL_TAKEN);
    if (await phoneTaken(tx, application.phone)) throw new AppError("conflict", APPLICATION_PHONE_TAKEN);
    const userId = await insertUser(tx, {
      type: "Company",
      email: application.email,
      firstname: application.firstname,
      lastname: application.lastname,
      name: application.companyName,
      siren: application.siren,
      phone: application.phone,
      city: application.city,
    });
    const link = `${deps.config.appUrl}/reset-password/${await issueResetToken(
      tx,
      userId,
      INVITATION_TTL_MS,
    )}`;
    await enqueueEmail(
      tx,
      await sealSecrets(
        partnerInvitationEmail(application.email, application.firstname, application.companyName, link),
        [link],
        deps.config.appSecret,
      ),
    );
    await decideApplication(tx, id, "accepted", admin.user.id, userId);
    return { userId, email: application.email, link };
  });
  await deps.logger.info("partners", "Candidature acceptée : compte partenaire créé", {
    applicationId: id,
    userId,
    adminId: admin.user.id,
  });
  if (deps.config.appEnv === "development" && !deps.config.smtpUrl) {
    console.log(`Lien d'invitation pour ${email} : ${link}`);
  }
  return userId;
}

export async function rejectApplication(deps: Deps, actor: Actor, id: string): Promise<void> {
  const admin = requireRole(actor, "Admin", { notImpersonating: true });
  await transactionAs(deps.db, admin, async (tx) => {
    const application = await lockApplication(tx, id);
    if (!application) throw new AppError("not_found", "Candidature introuvable.");
    if (application.status !== "pending") throw new AppError("conflict", APPLICATION_ALREADY_DECIDED);
    await decideApplication(tx, id, "rejected", admin.user.id, null);
  });
  await deps.logger.info("partners", "Candidature refusée", { applicationId: id, adminId: admin.user.id });
}
