// Switchable faults of the sandbox shop, held in memory (a restart clears them, like `reset`): the same kinds,
// once/sticky and scopes as the payment sandbox's (provider-sandbox/faults.ts), scoped by order instead of
// payment intent. Pure code: the routes ask `match` what to do with each request.

/**
 * `answer_pending` (the shop's own, no payment-sandbox twin): the action is taken in and answered `pending` — queued at
 * the shop, nothing done yet — until the control endpoint completes it (`POST /__control/actions/{key}/complete`).
 */
export const FAULT_KINDS = ["latency", "fail_5xx", "accept_then_hang", "drop_after_commit", "answer_pending"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
/** Which requests a fault applies to: `POST /actions` (create, the default), `GET /actions/{key}` (read), or both. */
export const FAULT_SCOPES = ["create", "read", "any"] as const;
export type FaultScope = (typeof FAULT_SCOPES)[number];

export type FaultSpec = {
  kind: FaultKind;
  /** One-shot (default) faults are used up by the first request they match; sticky ones stay until cleared. */
  once?: boolean;
  /** Only requests about this order (create: the body's `subject.ref`; read: the stored action's). */
  orderNumber?: string;
  on?: FaultScope;
  /** For `latency`: how long the request is held (for a create: inside its transaction, holding the key). */
  latencyMs?: number;
};

export type Fault = Required<Pick<FaultSpec, "kind" | "once" | "on">> & {
  id: number;
  orderNumber: string | null;
  latencyMs: number;
  hits: number;
};

export type FaultAction = Exclude<FaultKind, "latency">;
export type FaultMatch = { latencyMs: number; action: FaultAction | null; faultIds: number[] };

export class FaultBoard {
  private faults: Fault[] = [];
  private nextId = 1;

  add(spec: FaultSpec): Fault {
    const fault: Fault = {
      id: this.nextId++,
      kind: spec.kind,
      once: spec.once ?? true,
      on: spec.on ?? "create",
      orderNumber: spec.orderNumber ?? null,
      latencyMs: spec.kind === "latency" ? Math.max(0, spec.latencyMs ?? 0) : 0,
      hits: 0,
    };
    this.faults.push(fault);
    return fault;
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  clear(): void {
    this.faults = [];
  }

  /**
   * What to do with one request: the longest matching latency, and the first matching action fault
   * (the order they were added). Matching one-shot faults are consumed.
   */
  match(request: { endpoint: "create" | "read"; orderNumber: string | null }): FaultMatch {
    let latencyMs = 0;
    let action: FaultAction | null = null;
    const used: Fault[] = [];
    for (const fault of this.faults) {
      if (fault.on !== "any" && fault.on !== request.endpoint) continue;
      if (fault.orderNumber !== null && fault.orderNumber !== request.orderNumber) continue;
      if (fault.kind === "latency") {
        latencyMs = Math.max(latencyMs, fault.latencyMs);
        used.push(fault);
      } else if (action === null) {
        action = fault.kind;
        used.push(fault);
      }
    }
    for (const fault of used) fault.hits++;
    this.faults = this.faults.filter((f) => !(f.once && used.includes(f)));
    return { latencyMs, action, faultIds: used.map((f) => f.id) };
  }
}
