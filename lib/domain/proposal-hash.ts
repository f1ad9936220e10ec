// The proposal hash (docs/design.md "Proposal hash"): sha256, lowercase hex, of the RFC 8785 (JCS) canonical
// JSON of exactly these fields. Version 2 adds `requiredApprovals` and `policyVersion` (what an approval
// depends on); a proposal without a policy version is a version 1 proposal and stays verifiable as such.
// Version 3 adds `source`: the snapshot the amount was derived from (the payment's provider and reference, what
// was captured and what was already refunded or being refunded, as read at prepare), so an approval also says
// "of what was left then"; a proposal without a source is v2 (or v1) and stays verifiable. The approve request
// carries the hash the reviewer saw; the server recomputes it from its own rows with this function and refuses a
// mismatch.
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { isMinorUnits } from "./money";

export type ProposalHashInput = {
  id: string;
  tenantId: string;
  /** The tool that prepared the proposal (`Proposal.tool`): what the approval authorizes. */
  tool: string;
  orderId: string;
  amount: { minor: number; currency: string };
  recipient: { kind: string; ref: string; holder: string };
  reason: string;
  expiresAt: Date;
  /** Hash v2 (with `policyVersion`): the distinct approvals needed. */
  requiredApprovals?: number;
  /** Hash v2: the tenant policy version the proposal was prepared under. Absent/null = hash v1. */
  policyVersion?: number | null;
  /** Hash v3: what the amount was derived from. Absent/null = hash v2 (or v1). */
  source?: ProposalSource | null;
};

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
  if (p.policyVersion === undefined || p.policyVersion === null) return v1;
  if (!Number.isInteger(p.policyVersion) || p.policyVersion < 1)
    throw new Error("policyVersion must be a positive integer");
  if (!Number.isInteger(p.requiredApprovals) || p.requiredApprovals! < 1)
    throw new Error("requiredApprovals must be a positive integer");
  const v2 = { ...v1, v: 2, requiredApprovals: p.requiredApprovals!, policyVersion: p.policyVersion } as const;
  if (p.source === undefined || p.source === null) return v2;
  const { provider, paymentRef, capturedMinor, refundedMinor } = p.source;
  if (!isMinorUnits(capturedMinor) || !isMinorUnits(refundedMinor) || capturedMinor < 0 || refundedMinor < 0) {
    throw new Error("source amounts must be non-negative integer minor units");
  }
  return { ...v2, v: 3, source: { provider, paymentRef, capturedMinor, refundedMinor } } as const;
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
};

/**
 * The hash input of a proposal row: the one mapping from stored columns to hashed fields, used when a
 * proposal is built and whenever its hash is recomputed (approval, execution, evidence). A later hash
 * version adds its fields here and in `proposalHashPayload` (v2 added requiredApprovals and policyVersion, v3 the source).
 */
export function hashInputOf(p: HashableProposal): ProposalHashInput {
  return {
    id: p.id,
    tenantId: p.tenantId,
    tool: p.tool,
    orderId: p.orderId,
    amount: { minor: p.amountMinor, currency: p.currency },
    recipient: { kind: p.recipientKind, ref: p.recipientRef, holder: p.recipientHolder },
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
