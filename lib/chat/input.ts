// What the chat API accepts (server only). Author id, type and name are never read from a request.
import { z } from "zod";
import { AppError } from "../errors.ts";
import { parseInput } from "../validation.ts";
import { CHAT_ENTITY_TYPE, CHAT_MESSAGES, messageTextError } from "./rules.ts";

const id = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const text = String(v);
  if (!/^[1-9]\d{0,14}$/.test(text)) {
    ctx.addIssue({ code: "custom", message: CHAT_MESSAGES.badEntity });
    return z.NEVER;
  }
  return Number(text);
});

const afterId = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const text = String(v);
  if (!/^(0|[1-9]\d{0,17})$/.test(text) || !Number.isSafeInteger(Number(text))) {
    ctx.addIssue({ code: "custom", message: CHAT_MESSAGES.badCursor });
    return z.NEVER;
  }
  return Number(text);
});

const thread = {
  entityId: id,
  entityType: z.literal(CHAT_ENTITY_TYPE, { error: CHAT_MESSAGES.badEntity }),
};

export const threadQuery = z.object({
  ...thread,
  after: afterId.optional(),
  before: afterId.optional(),
});

export const postBody = z.object({
  ...thread,
  type: z.literal("message", { error: CHAT_MESSAGES.notificationRefused }).default("message"),
  text: z.string({ error: CHAT_MESSAGES.empty }),
});

export const readInput = z.object({ ...thread, through: afterId });

export function parseRead(input: Record<string, unknown>): { dealId: number; through: number } {
  const parsed = parseInput(readInput, input, CHAT_MESSAGES.badEntity);
  return { dealId: parsed.entityId, through: parsed.through };
}

export interface ThreadInput {
  dealId: number;
  /** Entries after this id (a catch-up), oldest first. */
  after: number | null;
  /** The page of entries before this id ('Messages précédents'); without either, the latest page. */
  before?: number | null;
}

export function parseThread(input: Record<string, unknown>): ThreadInput {
  const parsed = parseInput(threadQuery, input, CHAT_MESSAGES.badEntity);
  if (parsed.after !== undefined && parsed.before !== undefined) {
    throw new AppError("validation", CHAT_MESSAGES.bothCursors, { before: CHAT_MESSAGES.bothCursors });
  }
  return { dealId: parsed.entityId, after: parsed.after ?? null, before: parsed.before ?? null };
}

export function parsePost(input: Record<string, unknown>): { dealId: number; text: string } {
  const parsed = parseInput(postBody, input, CHAT_MESSAGES.badEntity, { multiLine: ["text"] });
  const error = messageTextError(parsed.text);
  if (error) throw new AppError("validation", error, { text: error });
  return { dealId: parsed.entityId, text: parsed.text };
}
