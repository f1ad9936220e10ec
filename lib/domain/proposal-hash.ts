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
// Version 5 is the action kinds' hash (docs/action-kinds.md): `{v, id, tenantId, kind, tool, subject, params, source,
// reason, expiresAt, requiredApprovals, policyVersion}`, where `subject` ({type, ref}), `params` (the exact values a
// person approves) and `source` (the snapshot they were derived from) are what the kind derived, stored as JSON in
// the row's own columns. v1–v4 are the refund's own shapes and stay verifiable.
// Versions 6 and 7 add who must confirm (`confirmation`: "reviewers" | "customer" | "both", docs/action-kinds.md "Who
// confirms"): v6 is the kinds' v5 plus it, v7 the refund's v4 plus it. A proposal whose confirmation is only the
// reviewers' keeps v4 / v5 (a database CHECK: a row hashed v1–v5 is "reviewers"), so the choice is always bound.
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
  /** Hash v7: who must confirm (v4 + this field). */
  confirmation?: Confirmation;
};

/** Who must confirm a proposal (hashed from v6 / v7): the reviewers only, the customer only, or both. */
export type Confirmation = "reviewers" | "customer" | "both";
export const CONFIRMATIONS: readonly Confirmation[] = ["reviewers", "customer", "both"];

/** One line of an order as a v4 proposal binds it (Order.items). */
export type ProposalItem = { sku: string; name: string; quantity: number; unitMinor: number };
/** What a v4 proposal binds of its order: what the reviewer reads about it. */
export type ProposalOrderSnapshot = { number: string; customer: { id: string; name: string }; items: ProposalItem[] };

/** The newest refund-shaped hash version: what a new refund proposal is hashed with. */
export const PROPOSAL_HASH_VERSION = 4;
/** The action kinds' hash version (every kind but the refund, whose own shape v4 already binds all it shows). */
export const KIND_HASH_VERSION = 5;
/** The kinds' hash with who confirms: v5 + `confirmation` (a kind's proposal that needs the customer). */
export const KIND_CONFIRMATION_HASH_VERSION = 6;
/** The refund's hash with who confirms: v4 + `confirmation` (a refund whose tenant asks for the customer too). */
export const REFUND_CONFIRMATION_HASH_VERSION = 7;

/** The version a new proposal is hashed with: a confirmation beyond the reviewers' needs the version that binds it. */
export function hashVersionFor(shape: "refund" | "kind", confirmation: Confirmation): number {
  if (confirmation === "reviewers") return shape === "refund" ? PROPOSAL_HASH_VERSION : KIND_HASH_VERSION;
  return shape === "refund" ? REFUND_CONFIRMATION_HASH_VERSION : KIND_CONFIRMATION_HASH_VERSION;
}

/** A JSON value as a kind's params and source may hold it: no floats (money is integer minor units), no undefined. */
export type HashedJson = string | number | boolean | null | HashedJson[] | { [key: string]: HashedJson };

/** What the action is done to: `{type: "order", ref: <order id>}`, `{type: "customer", ref: <customer id>}`… */
export type ProposalSubject = { type: string; ref: string };

/** Hash v5: a proposal of any kind, over what the kind derived (v6: and who confirms). */
export type KindHashInput = {
  v: 5 | 6;
  id: string;
  tenantId: string;
  kind: string;
  tool: string;
  subject: ProposalSubject;
  params: { [key: string]: HashedJson };
  source: { [key: string]: HashedJson } | null;
  /** The reason the model gave, when the kind's tool takes one ("" otherwise). */
  reason: string;
  expiresAt: Date;
  requiredApprovals: number;
  policyVersion: number;
  /** Hash v6: who must confirm. */
  confirmation?: Confirmation;
};

/** The snapshot a v3 proposal's amount was derived from (docs/systems-of-record.md). */
export type ProposalSource = { provider: string; paymentRef: string; capturedMinor: number; refundedMinor: number };

/** Whether a hash input is the kinds' (v5) rather than a refund's own shape (v1–v4). */
function isKindInput(p: ProposalHashInput | KindHashInput): p is KindHashInput {
  return p.v === KIND_HASH_VERSION || p.v === KIND_CONFIRMATION_HASH_VERSION;
}

function confirmationOf(c: unknown): Confirmation {
  if (typeof c !== "string" || !(CONFIRMATIONS as readonly string[]).includes(c))
    throw new Error("hash v6/v7 needs who confirms: reviewers, customer or both");
  return c as Confirmation;
}

/**
 * A kind's JSON exactly as hashed: plain objects, arrays, strings, booleans, null and safe integers only. A float, a
 * non-finite number, undefined, a Date or any other object throws — a value that would not survive a round trip
 * through the database's jsonb unchanged can never be part of what a person approved.
 */
export function hashedJsonOf(raw: unknown, path = "params"): HashedJson {
  if (raw === null || typeof raw === "string" || typeof raw === "boolean") return raw;
  if (typeof raw === "number") {
    if (!Number.isSafeInteger(raw)) throw new Error(`${path} must hold integers only (money in minor units)`);
    return raw;
  }
  if (Array.isArray(raw)) return raw.map((v, i) => hashedJsonOf(v, `${path}[${i}]`));
  if (typeof raw === "object" && Object.getPrototypeOf(raw) === Object.prototype) {
    const out: { [key: string]: HashedJson } = {};
    for (const [k, v] of Object.entries(raw)) out[k] = hashedJsonOf(v, `${path}.${k}`);
    return out;
  }
  throw new Error(`${path} holds a value JSON cannot keep exactly`);
}

function hashedObjectOf(raw: unknown, path: string): { [key: string]: HashedJson } {
  const v = hashedJsonOf(raw, path);
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw new Error(`${path} must be an object`);
  return v;
}

function kindPayload(p: KindHashInput) {
  if (Number.isNaN(p.expiresAt.getTime())) throw new Error("expiresAt is not a valid date");
  if (typeof p.kind !== "string" || p.kind === "") throw new Error("hash v5 needs the kind");
  if (typeof p.subject?.type !== "string" || typeof p.subject.ref !== "string" || !p.subject.type || !p.subject.ref)
    throw new Error("hash v5 needs the subject {type, ref}");
  if (!Number.isInteger(p.policyVersion) || p.policyVersion < 1)
    throw new Error("policyVersion must be a positive integer");
  if (!Number.isInteger(p.requiredApprovals) || p.requiredApprovals < 1)
    throw new Error("requiredApprovals must be a positive integer");
  if (typeof p.reason !== "string") throw new Error("reason must be a string");
  const v5 = {
    v: 5,
    id: p.id,
    tenantId: p.tenantId,
    kind: p.kind,
    tool: p.tool,
    subject: { type: p.subject.type, ref: p.subject.ref },
    params: hashedObjectOf(p.params, "params"),
    source: p.source === null ? null : hashedObjectOf(p.source, "source"),
    reason: p.reason,
    expiresAt: p.expiresAt.toISOString(),
    requiredApprovals: p.requiredApprovals,
    policyVersion: p.policyVersion,
  } as const;
  if (p.v === KIND_HASH_VERSION) return v5;
  return { ...v5, v: 6, confirmation: confirmationOf(p.confirmation) } as const;
}

/** The exact object that is canonicalized and hashed (exported so a reviewer tool can show it). */
export function proposalHashPayload(p: ProposalHashInput | KindHashInput) {
  if (isKindInput(p)) return kindPayload(p);
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
  if (![1, 2, 3, 4, REFUND_CONFIRMATION_HASH_VERSION].includes(v)) throw new Error(`unknown hash version ${String(v)}`);
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
  const v4 = {
    ...v3,
    v: 4,
    recipient: { ...v3.recipient, display },
    order: { number, customer: { id: customer.id, name: customer.name }, items: itemsOf(items) },
  } as const;
  if (v === 4) return v4;
  return { ...v4, v: REFUND_CONFIRMATION_HASH_VERSION, confirmation: confirmationOf(p.confirmation) } as const;
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

export function canonicalProposalJson(p: ProposalHashInput | KindHashInput): string {
  // A plain object of strings and numbers always canonicalizes (undefined comes only from a top-level toJSON).
  return canonicalize(proposalHashPayload(p))!;
}

export function computeProposalHash(p: ProposalHashInput | KindHashInput): string {
  // update() hashes a string as UTF-8.
  return createHash("sha256").update(canonicalProposalJson(p)).digest("hex");
}

/** Whether a presented hash is exactly the recomputed one (64 lowercase hex: anything else never equals it). */
export function proposalHashMatches(p: ProposalHashInput | KindHashInput, presented: string): boolean {
  return computeProposalHash(p) === presented;
}

/** The columns of a stored proposal that its hash covers (the Prisma row has them under these names). */
export type HashableProposal = {
  /** The version the row was hashed with (`Proposal.hashVersion`): stored, never inferred. */
  hashVersion: number;
  id: string;
  tenantId: string;
  tool: string;
  /** The kind and what it derived (hash v5; a refund hashed v1–v4 has kind "refund" and its own columns instead). */
  kind: string;
  subject: unknown;
  params: unknown;
  source: unknown;
  /** The refund's own columns (hash v1–v4): null on every other kind (a CHECK constraint keeps a refund's set). */
  orderId: string | null;
  amountMinor: number | null;
  currency: string | null;
  recipientKind: string | null;
  recipientRef: string | null;
  recipientHolder: string | null;
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
  recipientDisplay: string | null;
  customerId: string | null;
  orderNumber: string | null;
  customerName: string | null;
  /** Order.items as copied at prepare (JSON). */
  orderItems: unknown;
  /** Hash v6 / v7: who must confirm ("reviewers" on every row hashed before; absent = "reviewers"). */
  confirmation?: string;
};

/**
 * The hash input of a proposal row: the one mapping from stored columns to hashed fields, used when a
 * proposal is built and whenever its hash is recomputed (approval, execution, evidence). A later hash
 * version adds its fields here and in `proposalHashPayload` (v2 added requiredApprovals and policyVersion, v3 the source,
 * v4 the recipient's display and the order snapshot). The row's `hashVersion` decides which fields are hashed.
 */
export function hashInputOf(p: HashableProposal): ProposalHashInput | KindHashInput {
  if (p.hashVersion === KIND_HASH_VERSION || p.hashVersion === KIND_CONFIRMATION_HASH_VERSION) {
    const subject = p.subject as Partial<ProposalSubject> | null;
    return {
      v: p.hashVersion,
      id: p.id,
      tenantId: p.tenantId,
      kind: p.kind,
      tool: p.tool,
      subject: { type: String(subject?.type ?? ""), ref: String(subject?.ref ?? "") },
      params: hashedObjectOf(p.params, "params"),
      source: p.source === null || p.source === undefined ? null : hashedObjectOf(p.source, "source"),
      reason: p.reason,
      expiresAt: p.expiresAt,
      requiredApprovals: p.requiredApprovals,
      policyVersion: p.policyVersion ?? 0,
      ...(p.hashVersion === KIND_CONFIRMATION_HASH_VERSION ? { confirmation: p.confirmation as Confirmation } : {}),
    };
  }
  const refund = refundColumnsOf(p);
  return {
    v: p.hashVersion,
    id: p.id,
    tenantId: p.tenantId,
    tool: p.tool,
    orderId: refund.orderId,
    amount: { minor: refund.amountMinor, currency: refund.currency },
    recipient: {
      kind: refund.recipientKind,
      ref: refund.recipientRef,
      holder: refund.recipientHolder,
      display: refund.recipientDisplay ?? undefined,
    },
    reason: p.reason,
    expiresAt: p.expiresAt,
    requiredApprovals: p.requiredApprovals,
    policyVersion: p.policyVersion,
    source:
      p.sourceProvider === null
        ? null
        : {
            provider: p.sourceProvider,
            paymentRef: refund.recipientRef,
            capturedMinor: p.sourceCapturedMinor ?? 0,
            refundedMinor: p.sourceRefundedMinor ?? 0,
          },
    order:
      p.orderNumber === null || p.customerName === null
        ? null
        : {
            number: p.orderNumber,
            customer: { id: refund.customerId, name: p.customerName },
            items: p.orderItems as ProposalItem[],
          },
    ...(p.hashVersion === REFUND_CONFIRMATION_HASH_VERSION ? { confirmation: p.confirmation as Confirmation } : {}),
  };
}

/** A refund-shaped row's own columns, or a throw: a v1–v4 hash is over them, so none may be missing. */
function refundColumnsOf(p: HashableProposal) {
  const { orderId, amountMinor, currency, recipientKind, recipientRef, recipientHolder, customerId } = p;
  if (
    p.kind !== "refund" ||
    orderId === null ||
    amountMinor === null ||
    currency === null ||
    recipientKind === null ||
    recipientRef === null ||
    recipientHolder === null ||
    customerId === null
  )
    throw new Error(`hash v${p.hashVersion} is a refund's: the row lacks the refund's columns`);
  return {
    orderId,
    amountMinor,
    currency,
    recipientKind,
    recipientRef,
    recipientHolder,
    customerId,
    recipientDisplay: p.recipientDisplay,
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
