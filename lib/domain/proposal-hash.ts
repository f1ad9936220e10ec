// The proposal hash (docs/design.md "Proposal hash"): sha256, lowercase hex, of the RFC 8785 (JCS) canonical
// JSON of exactly these fields. Version 2 adds `requiredApprovals` and `policyVersion` (what an approval
// depends on); a proposal without a policy version is a version 1 proposal and stays verifiable as such.
// Version 3 adds `source`: the snapshot the amount was derived from (the payment's provider and reference, what
// was captured and what was already refunded or being refunded, as read at prepare), so an approval also says
// "of what was left then"; a proposal without a source is v2 (or v1) and stays verifiable. Version 4 adds what
// the reviewer reads and nothing else told them: the recipient's masked `display` ("Visa •••• 4242") and the
// `order` as it was at prepare (number, customer id and name, items), so every value the queue, the proposal page,
// the approve dialog and notifications present as the action comes from hashed values. A stored proposal carries
// its version in `Proposal.hashVersion` (never inferred); the input-level rule "absent `v` → v1–v3 by the fields
// present" is kept only for the fixed vectors and offline tools. The approve request carries the hash the reviewer
// saw; the server recomputes it from its own rows with this function and refuses a mismatch.
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { isMinorUnits } from "./money";

export type ProposalHashInput = {
  /** The hash version (a stored proposal's `hashVersion`). Absent: v1–v3 by the fields present; v4 is always explicit. */
  v?: number;
  id: string;
  tenantId: string;
  /** The tool that prepared the proposal (`Proposal.tool`): what the approval authorizes. */
  tool: string;
  orderId: string;
  amount: { minor: number; currency: string };
  /** `display` is hashed from v4 on. */
  recipient: { kind: string; ref: string; holder: string; display?: string };
  reason: string;
  expiresAt: Date;
  /** Hash v2 (with `policyVersion`): the distinct approvals needed. */
  requiredApprovals?: number;
  /** Hash v2: the tenant policy version the proposal was prepared under. Absent/null = hash v1. */
  policyVersion?: number | null;
  /** Hash v3: what the amount was derived from. Absent/null = hash v2 (or v1). */
  source?: ProposalSource | null;
  /** Hash v4: the order as the reviewer reads it, as it was at prepare. */
  order?: ProposalOrderSnapshot | null;
};

/** One line of an order as a v4 proposal binds it (Order.items). */
export type ProposalItem = { sku: string; name: string; quantity: number; unitMinor: number };
/** What a v4 proposal binds of its order: what the reviewer reads about it. */
export type ProposalOrderSnapshot = { number: string; customer: { id: string; name: string }; items: ProposalItem[] };

/** The newest hash version: what a new proposal is hashed with. */
export const PROPOSAL_HASH_VERSION = 4;

/** The snapshot a v3 proposal's amount was derived from (docs/systems-of-record.md). */
export type ProposalSource = { provider: string; paymentRef: string; capturedMinor: number; refundedMinor: number };

/** The exact object that is canonicalized and hashed (exported so a reviewer tool can show it). */
export function proposalHashPayload(p: ProposalHashInput) {
  if (!isMinorUnits(p.amount.minor)) throw new Error("amount.minor must be an integer number of minor units");
  if (Number.isNaN(p.expiresAt.getTime())) throw new Error("expiresAt is not a valid date");
  const v1 = {
    v: 1,
    id: p.id,
    tenantId: p.tenantId,
    tool: p.tool,
    orderId: p.orderId,
    amount: { minor: p.amount.minor, currency: p.amount.currency },
    recipient: { kind: p.recipient.kind, ref: p.recipient.ref, holder: p.recipient.holder },
    reason: p.reason,
    // toISOString is always UTC with milliseconds: "2026-11-29T20:15:00.000Z".
    expiresAt: p.expiresAt.toISOString(),
  } as const;
  const v = p.v ?? (p.policyVersion === undefined || p.policyVersion === null ? 1 : p.source ? 3 : 2);
  if (![1, 2, 3, 4].includes(v)) throw new Error(`unknown hash version ${String(v)}`);
  if (v === 1) return v1;
  if (!Number.isInteger(p.policyVersion) || p.policyVersion! < 1)
    throw new Error("policyVersion must be a positive integer");
  if (!Number.isInteger(p.requiredApprovals) || p.requiredApprovals! < 1)
    throw new Error("requiredApprovals must be a positive integer");
  const v2 = { ...v1, v: 2, requiredApprovals: p.requiredApprovals!, policyVersion: p.policyVersion! } as const;
  if (v === 2) return v2;
  if (!p.source) throw new Error(`hash v${v} needs the source snapshot`);
  const { provider, paymentRef, capturedMinor, refundedMinor } = p.source;
  if (!isMinorUnits(capturedMinor) || !isMinorUnits(refundedMinor) || capturedMinor < 0 || refundedMinor < 0) {
    throw new Error("source amounts must be non-negative integer minor units");
  }
  const v3 = { ...v2, v: 3, source: { provider, paymentRef, capturedMinor, refundedMinor } } as const;
  if (v === 3) return v3;
  const { display } = p.recipient;
  if (typeof display !== "string") throw new Error("hash v4 needs the recipient's display");
  if (!p.order) throw new Error("hash v4 needs the order snapshot");
  const { number, customer, items } = p.order;
  if (typeof number !== "string" || typeof customer?.id !== "string" || typeof customer.name !== "string")
    throw new Error("the order snapshot needs a number and the customer's id and name");
  return {
    ...v3,
    v: 4,
    recipient: { ...v3.recipient, display },
    order: { number, customer: { id: customer.id, name: customer.name }, items: itemsOf(items) },
  } as const;
}

/** The items exactly as hashed: each {sku, name, quantity, unitMinor}, integers where numbers; anything else throws. */
export function itemsOf(raw: unknown): ProposalItem[] {
  if (!Array.isArray(raw)) throw new Error("the order's items must be a list");
  return raw.map((i: Partial<Record<keyof ProposalItem, unknown>> | null, n) => {
    const { sku, name, quantity, unitMinor } = i ?? {};
    if (
      typeof sku !== "string" ||
      typeof name !== "string" ||
      !Number.isSafeInteger(quantity) ||
      !isMinorUnits(unitMinor)
    )
      throw new Error(`item ${n} must be {sku, name, quantity, unitMinor} with integer numbers`);
    return { sku, name, quantity: quantity as number, unitMinor };
  });
}

export function canonicalProposalJson(p: ProposalHashInput): string {
  // A plain object of strings and numbers always canonicalizes (undefined comes only from a top-level toJSON).
  return canonicalize(proposalHashPayload(p))!;
}

export function computeProposalHash(p: ProposalHashInput): string {
  // update() hashes a string as UTF-8.
  return createHash("sha256").update(canonicalProposalJson(p)).digest("hex");
}

/** Whether a presented hash is exactly the recomputed one (64 lowercase hex: anything else never equals it). */
export function proposalHashMatches(p: ProposalHashInput, presented: string): boolean {
  return computeProposalHash(p) === presented;
}

/** The columns of a stored proposal that its hash covers (the Prisma row has them under these names). */
export type HashableProposal = {
  /** The version the row was hashed with (`Proposal.hashVersion`): stored, never inferred. */
  hashVersion: number;
  id: string;
  tenantId: string;
  tool: string;
  orderId: string;
  amountMinor: number;
  currency: string;
  recipientKind: string;
  recipientRef: string;
  recipientHolder: string;
  reason: string;
  expiresAt: Date;
  requiredApprovals: number;
  /** Null for a proposal prepared before policy versions (hash v1). */
  policyVersion: number | null;
  /** Hash v3: the source snapshot; null on v1/v2 proposals (prepared before systems of record). */
  sourceProvider: string | null;
  sourceCapturedMinor: number | null;
  sourceRefundedMinor: number | null;
  /** Hash v4: the masked recipient and the order as the reviewer reads it, as at prepare (null before v4). */
  recipientDisplay: string;
  customerId: string;
  orderNumber: string | null;
  customerName: string | null;
  /** Order.items as copied at prepare (JSON). */
  orderItems: unknown;
};

/**
 * The hash input of a proposal row: the one mapping from stored columns to hashed fields, used when a
 * proposal is built and whenever its hash is recomputed (approval, execution, evidence). A later hash
 * version adds its fields here and in `proposalHashPayload` (v2 added requiredApprovals and policyVersion, v3 the source,
 * v4 the recipient's display and the order snapshot). The row's `hashVersion` decides which fields are hashed.
 */
export function hashInputOf(p: HashableProposal): ProposalHashInput {
  return {
    v: p.hashVersion,
    id: p.id,
    tenantId: p.tenantId,
    tool: p.tool,
    orderId: p.orderId,
    amount: { minor: p.amountMinor, currency: p.currency },
    recipient: { kind: p.recipientKind, ref: p.recipientRef, holder: p.recipientHolder, display: p.recipientDisplay },
    reason: p.reason,
    expiresAt: p.expiresAt,
    requiredApprovals: p.requiredApprovals,
    policyVersion: p.policyVersion,
    source:
      p.sourceProvider === null
        ? null
        : {
            provider: p.sourceProvider,
            paymentRef: p.recipientRef,
            capturedMinor: p.sourceCapturedMinor ?? 0,
            refundedMinor: p.sourceRefundedMinor ?? 0,
          },
    order:
      p.orderNumber === null || p.customerName === null
        ? null
        : {
            number: p.orderNumber,
            customer: { id: p.customerId, name: p.customerName },
            items: p.orderItems as ProposalItem[],
          },
  };
}

/** The hash recomputed from a proposal's own stored fields. */
export function recomputeProposalHash(p: HashableProposal): string {
  return computeProposalHash(hashInputOf(p));
}

/**
 * Whether a stored proposal is still what was hashed and approvable at all: it recomputes to its recorded
 * hash, and it asks for at least one approval. A row altered outside the product can break either (a
 * `requiredApprovals` of 0 or less, an amount that is not minor units, an invalid date…); it is then not
 * intact — a refusal the caller turns into `invalidated`, never a thrown error and never "approved with
 * zero approvals" (a v1 proposal does not hash `requiredApprovals`, so the count is checked here too).
 */
export function storedProposalIntact(p: HashableProposal & { hash: string }): boolean {
  if (!Number.isInteger(p.requiredApprovals) || p.requiredApprovals < 1) return false;
  try {
    return recomputeProposalHash(p) === p.hash;
  } catch {
    return false;
  }
}
