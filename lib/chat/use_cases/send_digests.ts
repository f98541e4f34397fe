// The unread digest (job registry, every minute, one instance at a time): each party of a deal — its
// customer, its partner while it may read the chat — with messages from others that it has neither
// read nor been emailed about, the oldest DIGEST_DELAY_MINUTES old, gets one email listing them. The
// email and the marker move in one transaction, the marker row locked: two runs never send it twice.
import { systemActor, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { enqueueEmail } from "../../mail/outbox.ts";
import { chatUnreadDigestEmail } from "../../mail/templates/chat-unread-digest.ts";
import { DIGEST_DELAY_MINUTES } from "../rules.ts";
import { digestCandidates, digestRecipient, lockMarker, setDigestThrough, unreadFor } from "../store.ts";

const JOB = systemActor("job");

export async function sendChatDigests(deps: Deps, minutes = DIGEST_DELAY_MINUTES): Promise<number> {
  const candidates = await transactionAs(deps.db, JOB, (tx) => digestCandidates(tx, minutes));
  let sent = 0;
  for (const candidate of candidates) {
    const done = await transactionAs(deps.db, JOB, async (tx) => {
      const since = await lockMarker(tx, candidate.dealId, candidate.userId);
      const unread = await unreadFor(tx, candidate.dealId, candidate.userId, since);
      if (!unread.length) return false;
      const recipient = await digestRecipient(tx, candidate.dealId, candidate.userId);
      const through = unread[unread.length - 1].id;
      if (recipient) {
        const link = recipient.type === "Customer"
          ? `${deps.config.appUrl}/deal/show/${recipient.dealToken}#chat`
          : `${deps.config.appUrl}/dashboard/espace-partenaire/deal/${candidate.dealId}#chat`;
        await enqueueEmail(
          tx,
          chatUnreadDigestEmail({
            to: recipient.email,
            firstname: recipient.firstname,
            dealName: recipient.dealName,
            link,
            unread: unread.length,
            messages: unread.map((m) => ({ authorName: m.authorName, text: m.text })),
          }),
        );
      }
      await setDigestThrough(tx, candidate.dealId, candidate.userId, through);
      return !!recipient;
    });
    if (done) sent++;
  }
  return sent;
}
