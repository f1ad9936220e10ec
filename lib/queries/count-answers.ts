// The two answers the shell re-reads on every page, checked by hand instead of with their zod DTOs
// (pendingCountDto in lib/schemas/proposal-dto.ts, inboxDto in lib/schemas/inbox-dto.ts). Why: the shell
// re-reads both as soon as the change stream opens (its "ready" means anything may have changed since the
// server render), so whatever validates them is part of every page's first load — and zod's core is
// ~23 KiB gzip in this build even through `zod/mini` (Turbopack keeps the whole core module), 15% of the
// queue's 150 KiB budget for two numbers. count-answers.test.ts keeps these checks in step with the DTOs.
import type { PendingCount } from "./queue-count";

const isCount = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v);

/** GET /api/proposals/pending-count: `{count, capped}`, or null when the answer has another shape. */
export function readPendingCount(body: unknown): PendingCount | null {
  if (typeof body !== "object" || body === null) return null;
  const { count, capped } = body as Record<string, unknown>;
  return isCount(count) && typeof capped === "boolean" ? { count, capped } : null;
}

/** GET /api/inbox: the badge's `count` (the rest of the inbox is rendered by the server), or null. */
export function readInboxCount(body: unknown): number | null {
  if (typeof body !== "object" || body === null) return null;
  const { count } = body as Record<string, unknown>;
  return isCount(count) ? count : null;
}
