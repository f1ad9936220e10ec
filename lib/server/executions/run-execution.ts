import "server-only";
import { kindBehaviourOf } from "@/lib/actions/registry.server";
import { db } from "@/lib/server/db/client";
import { RetryLater } from "./reconcile-execution";

// The execute and reconcile jobs (lib/server/jobs/tasks.ts) for every kind: the proposal's kind names its executor
// through the registry (the refund's is the payment provider's chain, a kind the shop carries out has the action
// endpoint's). A kind this release does not know (a newer release wrote it) is left for later, never guessed at.

/** The `execute_refund` job (its historical name; it executes any approved proposal once). */
export async function executeApprovedProposal(proposalId: string): Promise<string> {
  const row = await db().proposal.findUnique({ where: { id: proposalId }, select: { kind: true } });
  if (!row) return "not_approved";
  const behaviour = kindBehaviourOf(row.kind);
  if (!behaviour) throw new RetryLater(`this release cannot execute proposals of kind ${row.kind}`);
  return behaviour.executor.execute(proposalId);
}

/** The `reconcile_execution` job: settles an execution in doubt with the executor of its proposal's kind. */
export async function reconcileAnyExecution(executionId: string): Promise<string> {
  const row = await db().execution.findUnique({
    where: { id: executionId },
    select: { proposal: { select: { kind: true } } },
  });
  if (!row) return "already_settled";
  const behaviour = kindBehaviourOf(row.proposal.kind);
  if (!behaviour) throw new RetryLater(`this release cannot reconcile proposals of kind ${row.proposal.kind}`);
  return behaviour.executor.reconcile(executionId);
}
