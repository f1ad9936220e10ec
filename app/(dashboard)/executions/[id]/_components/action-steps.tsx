"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ExecutionDetail } from "@/lib/schemas/execution-dto";
import { StatusBadge } from "@/components/domain/status-badge";

/**
 * The action's other step (docs/action-kinds.md, "Steps"): this execution is the refund that goes with a
 * cancellation (step 2 of it), or this cancellation's refund (step 2) — with a link to that step's execution, or to
 * its proposal while it has none.
 */
export function ActionSteps({ d }: { d: ExecutionDetail }) {
  const td = useTranslations("executions.detail");
  const tkind = useTranslations("kinds");
  const title = (kind: string) => (tkind.has(`${kind}.title`) ? tkind(`${kind}.title`) : kind);
  const { partOf, followUp } = d.steps;
  const link = (step: { proposalId: string; executionId: string | null }) =>
    step.executionId ? (
      <Link href={`/executions/${step.executionId}`}>{td("openStep")}</Link>
    ) : (
      <Link href={`/proposals/${step.proposalId}`}>{td("openStepProposal")}</Link>
    );
  if (!partOf && !followUp) return null;
  return (
    <ul className="mt-3 mb-0 grid list-none gap-1 p-0 text-sm" aria-label={td("stepsLabel")}>
      {partOf ? (
        <li data-step="part-of" className="flex flex-wrap items-center gap-x-3">
          <span>{td("partOf", { kind: title(partOf.kind) })}</span>
          {link(partOf)}
        </li>
      ) : null}
      {followUp ? (
        <li data-step="follow-up" className="flex flex-wrap items-center gap-x-3">
          <span>{td("followUp", { kind: title(followUp.kind) })}</span>
          <StatusBadge status={followUp.status} />
          {link(followUp)}
        </li>
      ) : null}
    </ul>
  );
}
