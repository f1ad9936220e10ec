import "server-only";
// What the core asks of the declared_action kind about one of its proposals (../kind.server.ts, KindBehaviour).
// revalidate: the declaration version the proposal hashed is still the active one (else `declaration_changed`), and a
// fresh derive on the shop (fetched before the lock: revalidateOutside) gives the same values (else `derived_changed`; a derive that fails now: `derive_failed`; a
// shop that does not answer now: refused for this try, temporarily_unavailable, the proposal kept).
// executor: the shop's action endpoint with the declared execute action and the hashed params. review: the fields with
// their declared labels and the declared sentence, every value from the hashed params.
import { actionEndpointExecutor, type ExecutedProposal } from "@/lib/server/executions/action-endpoint-executor";
import { sqlPool } from "@/lib/server/db/pg";
import { sqlOf } from "@/lib/server/db/sql";
import type { OutsideProposal } from "@/lib/server/proposals/revalidation-outside";
import { AppError } from "@/lib/domain/outcome";
import type { KindBehaviour, KindReview } from "../kind.server";
import { activeVersion } from "./declarations";
import { deriveDeclaredFields, type DeriveResult } from "./derive";
import { agentAction, paramsOf, type DeclaredActionParams } from "./prepare";

const paramsFrom = (p: { params: unknown }) => p.params as DeclaredActionParams;

/** The re-derive done before the lock (revalidateOutside): for which declaration version, and what the shop said. */
type OutsideDerive = { declaration: { id: string; version: number }; derived: DeriveResult };

/**
 * Before the proposal's lock and any transaction (KindBehaviour.revalidateOutside): the re-derive on the shop under
 * the declaration version the proposal hashed, when that version is still the active one (else nothing: revalidate
 * refuses it under the lock anyway).
 */
async function revalidateOutside(p: OutsideProposal): Promise<OutsideDerive | undefined> {
  const { id, version, name } = paramsFrom(p).declaration;
  const declaration = await activeVersion(sqlPool(), p.tenantId, id, version);
  if (!declaration || declaration.name !== name) return undefined;
  return {
    declaration: { id, version },
    derived: await deriveDeclaredFields(p.tenantId, declaration.spec, paramsFrom(p).input),
  };
}

async function revalidate(...[tx, p, , outside]: Parameters<KindBehaviour["revalidate"]>): Promise<string | null> {
  const params = paramsFrom(p);
  const { id, version, name } = params.declaration;
  const declaration = await activeVersion(sqlOf(tx), p.tenantId, id, version);
  if (!declaration || declaration.name !== name) return "declaration_changed";
  // The shop's answer fetched before the lock when there is one for this very version (a version never changes);
  // else (a caller that fetched nothing) asked now.
  const early = outside as OutsideDerive | undefined;
  const derived =
    early && early.declaration.id === id && early.declaration.version === version
      ? early.derived
      : await deriveDeclaredFields(p.tenantId, declaration.spec, params.input);
  // The shop not answering now (timeout, connection, 5xx) says nothing about the proposal: refuse this try, keep the
  // proposal (an approval answers 503 and may be retried; the execute job runs again later). Any other failure — an
  // answer that no longer has the declared fields, a refusal — means what was approved cannot be checked: invalidated.
  if (!derived.ok && derived.problem === "derive_unavailable")
    throw new AppError(
      "temporarily_unavailable",
      "The shop did not answer the check of this action; try again shortly.",
      {
        reason: "derive_unavailable",
      },
    );
  if (!derived.ok) return "derive_failed";
  const again = paramsOf(declaration, params.input, derived.fields);
  const same = (a: DeclaredActionParams, b: DeclaredActionParams) =>
    JSON.stringify(a.fields.map((f) => [f.key, f.value])) === JSON.stringify(b.fields.map((f) => [f.key, f.value]));
  return same(again, params) ? null : "derived_changed";
}

/** The declared sentence as one sentence: what follows it on the page ("This approval expires…") starts a new one. */
const asSentence = (s: string) => (/[.!?…]$/.test(s.trimEnd()) ? s : `${s.trimEnd()}.`);

function review(raw: unknown): KindReview {
  const params = raw as DeclaredActionParams;
  return {
    fields: params.fields.map((f) => ({
      key: f.key,
      before: null,
      after: String(f.value),
      changed: false,
      label: f.label,
    })),
    sentence: {
      ...Object.fromEntries(params.fields.map((f) => [f.key, String(f.value)])),
      text_en: asSentence(params.sentence.en),
      text_es: asSentence(params.sentence.es),
    },
    summary: `${params.declaration.name}: ${params.sentence.en}`,
  };
}

export const declaredActionBehaviour: KindBehaviour = {
  confirmation: { floor: "reviewers" },
  freshStepUp: (params) => (params as DeclaredActionParams).declaration.stepUp === true,
  revalidate,
  revalidateOutside,
  review,
  agentAction: (p) => agentAction(paramsFrom(p)),
  executor: actionEndpointExecutor({
    revalidate,
    revalidateOutside,
    request: (p: ExecutedProposal) => {
      const params = paramsFrom(p);
      return {
        subject: p.subject as { type: string; ref: string },
        params: {
          action: params.declaration.execute,
          declaration: { name: params.declaration.name, version: params.declaration.version },
          input: params.input,
          fields: Object.fromEntries(params.fields.map((f) => [f.key, f.value])),
          ...(params.money ? { money: params.money } : {}),
        },
      };
    },
    // Our copy of the system of record holds nothing of a declared action: the shop's answer is the effect.
    settle: async () => undefined,
  }),
};
