import "server-only";
// The prepare of an admin-declared action (docs/action-kinds.md "Declaring an action"): the validated input (the
// gateway parsed it with the declaration's own strict schema) → the derive GET on the tenant's shop (./derive.ts,
// before the gateway's transaction: deriveDeclaredAction) →
// the hashed params a reviewer approves: the declaration's id, name and version (a proposal records the version it was
// prepared under), the input, each derived field with its declared label and whether it stays in clear, the filled
// sentence per locale and, when the policy says a field is money, `money: {minor, currency}` (the reviewers' daily
// cap counts it). A refused derive stores nothing and answers a stable reason. The audit keeps clear fields in clear
// and every other derived value as a keyed fingerprint, never the value.
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import {
  fillSentence,
  type ActionDeclarationSpec,
  type DeclaredInput,
  type DerivedValue,
} from "@/lib/domain/action-declaration";
import { failure, type ToolOutcome } from "@/lib/domain/agent-protocol";
import { requiredApprovalsFor } from "@/lib/domain/proposal-policy";
import { MAX_WAIT_SECONDS } from "@/lib/schemas/agent-inputs";
import type { HandlerResult, ToolContext } from "@/lib/server/agent/tool-context";
import { auditFingerprint } from "@/lib/server/audit/fingerprint";
import { sqlPool } from "@/lib/server/db/pg";
import { sql, type Sql } from "@/lib/server/db/sql";
import { kindApprovalRequired } from "@/lib/server/proposals/agent-answer";
import { insertKindProposal, readKindPolicy, type KindProposal } from "@/lib/server/proposals/insert-kind-proposal";
import { hasActionEndpoint, pendingProposalOf, replacePending } from "@/lib/server/proposals/kind-prepare";
import { isStillActive, type ActiveDeclaration } from "./declarations";
import { deriveDeclaredFields, type DeriveProblem, type DerivedField } from "./derive";
import { DECLARED_ACTION_KIND } from "./tools";

/** The hashed params of a declared action: exactly what a reviewer approves. */
export type DeclaredActionParams = {
  declaration: { id: string; name: string; version: number; execute: string; stepUp: boolean };
  input: DeclaredInput;
  fields: { key: string; label: { en: string; es: string }; value: DerivedValue; clear: boolean }[];
  sentence: { en: string; es: string };
  money?: { minor: number; currency: string };
};

const REFUSALS: Record<DeriveProblem, { code: "permission_denied" | "temporarily_unavailable"; text: string }> = {
  derive_not_configured: { code: "permission_denied", text: "This shop has not connected its action endpoint." },
  derive_refused: { code: "permission_denied", text: "The shop's address is not one this service may call." },
  derive_unavailable: { code: "temporarily_unavailable", text: "The shop did not answer in time." },
  derive_too_large: { code: "permission_denied", text: "The shop's answer was larger than allowed." },
  derive_failed: { code: "permission_denied", text: "The shop's answer was not usable JSON." },
  derive_field_missing: { code: "permission_denied", text: "The shop's answer lacks a declared field." },
  derive_field_invalid: { code: "permission_denied", text: "A field of the shop's answer has the wrong type." },
};

/** The params built from the declaration and the derived fields (also what revalidation compares). */
export function paramsOf(d: ActiveDeclaration, input: DeclaredInput, derived: DerivedField[]): DeclaredActionParams {
  const values = Object.fromEntries(derived.map((f) => [f.key, f.value]));
  const money = d.spec.policy.money;
  return {
    declaration: {
      id: d.id,
      name: d.name,
      version: d.version,
      execute: d.spec.execute.action,
      stepUp: d.spec.policy.stepUp,
    },
    input,
    fields: d.spec.fields.map((f) => ({ key: f.key, label: f.label, value: values[f.key]!, clear: f.clear })),
    sentence: { en: fillSentence(d.spec.sentence.en, values), es: fillSentence(d.spec.sentence.es, values) },
    ...(money
      ? { money: { minor: values[money.amountKey] as number, currency: values[money.currencyKey] as string } }
      : {}),
  };
}

/** What the audit keeps of the derived fields: clear ones as they are, the others as keyed fingerprints. */
function auditedFields(params: DeclaredActionParams) {
  const made: string[] = [];
  const personal: string[] = [];
  const derived = params.fields.map((f) => {
    if (f.clear) return { field: f.key, value_in_clear: f.value };
    const fp = auditFingerprint(String(f.value));
    made.push(fp);
    personal.push(String(f.value));
    return { field: f.key, fingerprint: fp };
  });
  return { derived, made, personal };
}

/** The subject: the declared action and the exact input (one pending proposal per name and input). */
function subjectOf(name: string, input: DeclaredInput) {
  const digest = createHash("sha256")
    .update(canonicalize(input) ?? "")
    .digest("hex")
    .slice(0, 40);
  return { type: DECLARED_ACTION_KIND, ref: `${name}:${digest}` };
}

/** What the derive before the transaction found: a refusal to answer, or the fields the shop answered. */
export type DeclaredDerive = { refused: HandlerResult } | { fields: DerivedField[] };

const gone = (d: ActiveDeclaration, declaration: object): HandlerResult => ({
  outcome: failure("unknown_tool", `There is no tool named "${d.name}" for this agent any more.`, {}),
  audit: { declaration },
});

/**
 * The handler's step before the gateway's transaction (ToolHandler.outside): the derive GET on the tenant's shop,
 * which may take up to DERIVE_TIMEOUT_MS, holding no pooled connection and no transaction meanwhile.
 */
export function deriveDeclaredAction(d: ActiveDeclaration) {
  return async (input: DeclaredInput, ctx: ToolContext): Promise<DeclaredDerive> => {
    const { tenantId } = ctx.caller;
    const declaration = { id: d.id, name: d.name, version: d.version };
    const pool = sqlPool();
    // Retired or superseded since the tool list was read: the same answer as a tool that is gone.
    if (!(await isStillActive(pool, tenantId, d.id, d.version))) return { refused: gone(d, declaration) };
    if (!(await hasActionEndpoint(pool, tenantId)))
      return { refused: { outcome: refusal("derive_not_configured", d.name), audit: { declaration } } };
    const derived = await deriveDeclaredFields(tenantId, d.spec, input);
    if (!derived.ok)
      return {
        refused: {
          outcome: refusal(derived.problem, d.name, derived.field),
          audit: { declaration, reason: derived.problem, field: derived.field ?? null, status: derived.status ?? null },
        },
      };
    return { fields: derived.fields };
  };
}

/** The handler's use case for one active declaration (run on the gateway's transaction, after the derive). */
export function prepareDeclaredAction(d: ActiveDeclaration) {
  return async (tx: Sql, input: DeclaredInput, ctx: ToolContext): Promise<HandlerResult> => {
    const { tenantId } = ctx.caller;
    const declaration = { id: d.id, name: d.name, version: d.version };
    const derived = ctx.outside as DeclaredDerive | undefined;
    if (!derived) throw new Error(`${d.name} was prepared without its derive`);
    if ("refused" in derived) return derived.refused;
    // Retired or superseded while the shop answered.
    if (!(await isStillActive(tx, tenantId, d.id, d.version))) return gone(d, declaration);
    const params = paramsOf(d, input, derived.fields);
    const { derived: auditDerived, made, personal } = auditedFields(params);
    const audit = { declaration, derived: auditDerived };

    const subject = subjectOf(d.name, input);
    // One prepare of a subject at a time (the proposal has no order row to lock): a transaction-scoped lock.
    await sql`SELECT 1 FROM pg_advisory_xact_lock(hashtextextended(${`declared:${tenantId}:${subject.ref}`}, 0))`.execute(
      tx,
    );
    const now = new Date();
    const pending = await pendingProposalOf(tx, tenantId, DECLARED_ACTION_KIND, subject);
    if (pending && pending.expiresAt > now && canonicalize(pending.params) === canonicalize(params))
      return {
        outcome: approvalRequired(pending, params, now),
        proposal: { id: pending.id, hash: pending.hash },
        audit: { ...audit, reused: true },
        madeFingerprints: made,
        knownPersonal: personal,
      };
    if (pending) await replacePending(tx, pending.id, "replaced_by_new_derive");
    const policy = await readKindPolicy(tx, tenantId);
    const requiredApprovals = Math.max(
      d.spec.policy.approvals,
      params.money ? requiredApprovalsFor(params.money.minor, ctx.caller.dualApprovalThresholdMinor) : 1,
    );
    const proposal = await insertKindProposal(tx, {
      tenantId,
      kind: DECLARED_ACTION_KIND,
      tool: d.name,
      subject,
      params,
      source: { declaration, derivePath: d.spec.derive.path },
      reason: "customer_request",
      orderId: null,
      customerId: ctx.customerId,
      orderNumber: null,
      requester: { agentKeyId: ctx.caller.keyId },
      channelId: ctx.caller.channelId,
      endUserId: ctx.customerId,
      traceId: ctx.traceId,
      requiredApprovals,
      policy,
      supersedesId: pending?.id ?? null,
      now,
    });
    return {
      outcome: approvalRequired(proposal, params, now),
      proposal: { id: proposal.id, hash: proposal.hash },
      audit: { ...audit, reused: false, supersedes: pending?.id ?? null },
      madeFingerprints: made,
      knownPersonal: personal,
    };
  };
}

function refusal(problem: DeriveProblem, name: string, field?: string): ToolOutcome {
  const r = REFUSALS[problem];
  return failure(r.code, `${r.text} ${name} cannot be prepared now; tell the customer and do not guess any value.`, {
    reason: problem,
    ...(field ? { field } : {}),
    ...(r.code === "temporarily_unavailable" ? { retry_after_seconds: 30 } : {}),
  });
}

/** The action as the agent is told it (prepare's answer and get_action_status): the hashed values only. */
export function agentAction(params: DeclaredActionParams) {
  return {
    action: params.declaration.name,
    declaration_version: params.declaration.version,
    input: params.input,
    fields: Object.fromEntries(params.fields.map((f) => [f.key, f.value])),
    sentence: params.sentence.en,
  };
}

function approvalRequired(
  p: Pick<KindProposal, "id" | "hash" | "expiresAt" | "requiredApprovals">,
  params: DeclaredActionParams,
  now: Date,
): ToolOutcome {
  return kindApprovalRequired(
    p,
    DECLARED_ACTION_KIND,
    agentAction(params),
    `A person must approve this before the shop does anything. Tell the customer it awaits review and read the sentence back to them. To learn the decision, call get_action_status with wait_seconds: ${MAX_WAIT_SECONDS}. Do not call ${params.declaration.name} again with the same input.`,
    now,
  );
}

export type { ActionDeclarationSpec };
