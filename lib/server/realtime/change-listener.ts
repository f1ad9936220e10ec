import "server-only";
import type pg from "pg";
import { proposalChangeSchema, type ProposalChange, type ProposalStatusChange } from "@/lib/schemas/proposal-change";

// One LISTEN connection fanned out to in-process subscribers and waiters. The process's instance lives in
// ./proposal-changes.ts; this class is separate so a test (or a bench) can run two "instances" side by side.
//
// Why a dedicated connection and not the pool: LISTEN belongs to a session, and a pooled connection is
// handed to other statements between uses. Why one per process: each waiting agent call (get_refund_status
// with wait_seconds) and each dashboard stream would otherwise hold a connection for up to 25 s.

export const PROPOSAL_CHANGES_CHANNEL = "proposal_changes";

/**
 * An event for subscribers: a change, or `resync` after the connection was lost and LISTEN is active again —
 * changes committed while it was down were not seen, so a subscriber re-reads what it shows.
 */
export type ProposalChangeEvent = ProposalChange | { kind: "resync"; tenantId: string };
export type ProposalChangeSubscriber = (event: ProposalChangeEvent) => void;

/** How a wait ended. `resync`: the connection dropped meanwhile, the caller must re-read (a change may be missed). */
export type WaitOutcome =
  | { outcome: "changed"; change: ProposalStatusChange }
  | { outcome: "timeout" }
  | { outcome: "aborted" }
  | { outcome: "resync" };

/** A registered wait: LISTEN is active, so any change committed from now on resolves `result`. */
export type ProposalWait = { result: Promise<WaitOutcome>; cancel(): void };

/** Why a wait could not start: this instance already holds `maxWaiters` waits, or LISTEN is not active. */
export type WaitRefusal = { refused: "too_many_waiters" | "unavailable" };

export type ChangeListenerOptions = {
  /** A new, unconnected client (its own session, never a pooled one). */
  connect: () => pg.Client;
  /** Concurrent waits this instance accepts; past it `beginWait` answers `too_many_waiters` at once. */
  maxWaiters: number;
  /** First reconnect delay; doubles up to `maxBackoffMs`. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  onError?: (error: unknown, context: string) => void;
};

type Waiter = { tenantId: string; proposalId: string; settle: (outcome: WaitOutcome) => void };

export class ChangeListener {
  readonly #options: Required<Omit<ChangeListenerOptions, "onError">> & Pick<ChangeListenerOptions, "onError">;
  readonly #subscribers = new Map<string, Set<ProposalChangeSubscriber>>();
  readonly #waiters = new Map<string, Set<Waiter>>();
  #waiterCount = 0;
  #client: pg.Client | null = null;
  #listening: Promise<void> | null = null;
  #markListening: (() => void) | null = null;
  #retryTimer: NodeJS.Timeout | null = null;
  #backoff: number;
  #closed = false;
  #connectedOnce = false;

  constructor(options: ChangeListenerOptions) {
    this.#options = { minBackoffMs: 100, maxBackoffMs: 5_000, ...options };
    this.#backoff = this.#options.minBackoffMs;
  }

  /** Waits currently registered on this instance. */
  get waiterCount(): number {
    return this.#waiterCount;
  }

  /** Waits currently registered on this instance for one proposal. */
  waitersOn(proposalId: string): number {
    return this.#waiters.get(proposalId)?.size ?? 0;
  }

  /**
   * Resolves once LISTEN is active (starts the connection on first use); rejects when it cannot be made
   * within `timeoutMs` (the connection keeps retrying in the background).
   */
  ready(timeoutMs = 5_000): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("the change listener is closed"));
    const listening = this.#start();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`LISTEN not active within ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([listening, timeout]).finally(() => clearTimeout(timer));
  }

  /** Calls `subscriber` for every change of the tenant's proposals (and `resync`); returns the unsubscribe. */
  subscribe(tenantId: string, subscriber: ProposalChangeSubscriber): () => void {
    let set = this.#subscribers.get(tenantId);
    if (!set) this.#subscribers.set(tenantId, (set = new Set()));
    set.add(subscriber);
    void this.ready().catch((error) => this.#options.onError?.(error, "subscribe"));
    return () => {
      set.delete(subscriber);
      if (set.size === 0 && this.#subscribers.get(tenantId) === set) this.#subscribers.delete(tenantId);
    };
  }

  /**
   * Registers a wait for the next change of one proposal, then makes sure LISTEN is active. Register first,
   * read the proposal after: a change committed after the read is then never missed.
   */
  async beginWait(
    tenantId: string,
    proposalId: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<ProposalWait | WaitRefusal> {
    if (this.#waiterCount >= this.#options.maxWaiters) return { refused: "too_many_waiters" };
    let settle!: (outcome: WaitOutcome) => void;
    const result = new Promise<WaitOutcome>((resolve) => (settle = resolve));
    let done = false;
    const waiter: Waiter = {
      tenantId,
      proposalId,
      settle: (outcome) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        const set = this.#waiters.get(proposalId);
        set?.delete(waiter);
        if (set?.size === 0) this.#waiters.delete(proposalId);
        this.#waiterCount -= 1;
        settle(outcome);
      },
    };
    const onAbort = () => waiter.settle({ outcome: "aborted" });
    this.#waiterCount += 1;
    let set = this.#waiters.get(proposalId);
    if (!set) this.#waiters.set(proposalId, (set = new Set()));
    set.add(waiter);
    const timer = setTimeout(() => waiter.settle({ outcome: "timeout" }), Math.max(0, timeoutMs));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    try {
      await this.ready(Math.max(1, Math.min(timeoutMs, 5_000)));
    } catch {
      waiter.settle({ outcome: "aborted" });
      return { refused: "unavailable" };
    }
    return { result, cancel: () => waiter.settle({ outcome: "aborted" }) };
  }

  /** Waits for the next change of one proposal, at most `timeoutMs`. */
  async waitForChange(
    tenantId: string,
    proposalId: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<WaitOutcome | WaitRefusal> {
    const wait = await this.beginWait(tenantId, proposalId, timeoutMs, signal);
    return "refused" in wait ? wait : wait.result;
  }

  /** Ends the connection and every wait (as `aborted`); subscribers stay registered but hear nothing more. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    for (const set of [...this.#waiters.values()]) for (const w of [...set]) w.settle({ outcome: "aborted" });
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => undefined);
  }

  #start(): Promise<void> {
    if (!this.#listening) {
      this.#listening = new Promise<void>((resolve) => (this.#markListening = resolve));
      void this.#attempt();
    }
    return this.#listening;
  }

  async #attempt(): Promise<void> {
    this.#retryTimer = null;
    if (this.#closed) return;
    const client = this.#options.connect();
    // A dropped connection: forget it, wait for the next one (ready() blocks again), retry with backoff;
    // once LISTEN is back, everyone is told to re-read (#resync).
    const lost = (error?: unknown) => {
      if (this.#client !== client) return;
      this.#client = null;
      if (error) this.#options.onError?.(error, "connection lost");
      client.end().catch(() => undefined);
      this.#listening = new Promise<void>((resolve) => (this.#markListening = resolve));
      this.#scheduleRetry();
    };
    client.on("error", lost);
    client.on("end", () => lost());
    client.on("notification", (message) => {
      if (message.channel === PROPOSAL_CHANGES_CHANNEL) this.#dispatch(message.payload);
    });
    this.#client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${PROPOSAL_CHANGES_CHANNEL}`);
    } catch (error) {
      if (this.#client === client) {
        this.#client = null;
        this.#options.onError?.(error, "connect");
        client.end().catch(() => undefined);
        this.#scheduleRetry();
      }
      return;
    }
    if (this.#client !== client) return;
    this.#backoff = this.#options.minBackoffMs;
    if (this.#connectedOnce) this.#resync();
    this.#connectedOnce = true;
    this.#markListening?.();
  }

  #scheduleRetry() {
    if (this.#closed || this.#retryTimer) return;
    const delay = this.#backoff;
    this.#backoff = Math.min(this.#backoff * 2, this.#options.maxBackoffMs);
    this.#retryTimer = setTimeout(() => void this.#attempt(), delay);
    // A listener never keeps a process alive on its own (scripts and tests exit when their work is done).
    this.#retryTimer.unref();
  }

  #resync() {
    for (const set of [...this.#waiters.values()]) for (const w of [...set]) w.settle({ outcome: "resync" });
    for (const [tenantId, set] of this.#subscribers)
      for (const s of [...set]) this.#call(s, { kind: "resync", tenantId });
  }

  #dispatch(payload: string | undefined) {
    let change: ProposalChange;
    try {
      change = proposalChangeSchema.parse(JSON.parse(payload ?? ""));
    } catch (error) {
      this.#options.onError?.(error, "payload");
      return;
    }
    // Waits (an agent's get_refund_status) end on a status change only: an approval that leaves the proposal
    // pending, or an admin change, is nothing the agent can see.
    if (change.kind === "proposal" || change.kind === "execution") {
      for (const w of [...(this.#waiters.get(change.proposalId) ?? [])]) {
        // A proposal id is unique across tenants, but the tenant is checked all the same.
        if (w.tenantId === change.tenantId) w.settle({ outcome: "changed", change });
      }
    }
    for (const s of [...(this.#subscribers.get(change.tenantId) ?? [])]) this.#call(s, change);
  }

  #call(subscriber: ProposalChangeSubscriber, event: ProposalChangeEvent) {
    try {
      subscriber(event);
    } catch (error) {
      this.#options.onError?.(error, "subscriber");
    }
  }
}
