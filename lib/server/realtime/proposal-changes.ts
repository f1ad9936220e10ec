import "server-only";
import { dedicatedPgClient } from "@/lib/server/db/pg";
import { realtimeMaxWaiters } from "@/lib/server/env";
import { log } from "@/lib/server/log";
import {
  ChangeListener,
  type ProposalChangeSubscriber,
  type ProposalWait,
  type WaitOutcome,
  type WaitRefusal,
} from "./change-listener";

// The process's one change listener (one dedicated LISTEN connection, started on first use, kept on
// globalThis so dev hot reloads do not open another). docs/architecture.md "Realtime" describes the API.

export type {
  ProposalChangeEvent,
  ProposalChangeSubscriber,
  ProposalWait,
  WaitOutcome,
  WaitRefusal,
} from "./change-listener";
export type { ProposalChange } from "@/lib/schemas/proposal-change";

const globalForRealtime = globalThis as unknown as { proposalChanges?: ChangeListener };

function listener(): ChangeListener {
  globalForRealtime.proposalChanges ??= new ChangeListener({
    connect: dedicatedPgClient,
    maxWaiters: realtimeMaxWaiters(),
    onError: (error, context) =>
      log.warn({ err: error instanceof Error ? error.message : String(error), context }, "realtime listener"),
  });
  return globalForRealtime.proposalChanges;
}

/** Every status change of the tenant's proposals and executions, plus `resync` after a reconnect. Returns the unsubscribe. */
export function subscribeProposalChanges(tenantId: string, subscriber: ProposalChangeSubscriber): () => void {
  return listener().subscribe(tenantId, subscriber);
}

/** What a wait for one proposal's next change names: the tenant, the proposal, how long, and what may abort it. */
type ProposalWaitArgs = [tenantId: string, proposalId: string, timeoutMs: number, signal?: AbortSignal];

/**
 * Registers a wait for the next change of one proposal and resolves once LISTEN is active; read the
 * proposal after this resolves, then await `result` (or `cancel()` when what you read needs no wait).
 * `{refused: "too_many_waiters"}` past REALTIME_MAX_WAITERS on this instance; `{refused: "unavailable"}`
 * when the listener cannot connect in time.
 */
export function beginProposalWait(...wait: ProposalWaitArgs): Promise<ProposalWait | WaitRefusal> {
  return listener().beginWait(...wait);
}

/** The next change of one proposal, or how the wait ended (`timeout`, `aborted`, `resync`, or a refusal). */
export function waitForProposalChange(...wait: ProposalWaitArgs): Promise<WaitOutcome | WaitRefusal> {
  return listener().waitForChange(...wait);
}

/**
 * How many waits this process holds now, or on one proposal (a bench or a test waits for its call to be registered
 * before deciding).
 */
export function proposalWaiterCount(proposalId?: string): number {
  return proposalId === undefined ? listener().waiterCount : listener().waitersOn(proposalId);
}

/** Closes the process's listener (tests, scripts that exit); the next use opens a new one. */
export async function stopProposalChanges(): Promise<void> {
  const current = globalForRealtime.proposalChanges;
  globalForRealtime.proposalChanges = undefined;
  await current?.close();
}

/** Resolves once this process's LISTEN is active (rejects after `timeoutMs`; it keeps retrying meanwhile). */
export function proposalChangesReady(timeoutMs = 5_000): Promise<void> {
  return listener().ready(timeoutMs);
}
