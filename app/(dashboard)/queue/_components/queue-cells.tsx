// Cells of the server-rendered queue (queue-table.tsx): the flags a reviewer weighs, the bulk-reject checkbox.
import { getTranslations } from "next-intl/server";
import type { QueueRow } from "@/lib/schemas/proposal-dto";
import { Badge } from "@/components/ui/badge";
import { BULK_CHECKBOX } from "./queue-options";

/** The advisory claim, duplicate, earlier refusal, velocity and four-eyes badges of one proposal. */
export async function Flags({ r }: { r: QueueRow }) {
  const [t, tf, tfh, tc] = await Promise.all([
    getTranslations("queue"),
    getTranslations("flags"),
    getTranslations("flagsHelp"),
    getTranslations("proposal.claim"),
  ]);
  const warn = "border-warning-foreground/40 bg-warning text-warning-foreground";
  // The warnings, in this order, alike but for their name and what they say on hover; those that hold are shown.
  const warnings = [
    { flag: "duplicate", holds: r.flags.duplicate, title: tfh("duplicate") },
    {
      flag: "previouslyRejected",
      holds: !!r.previouslyRejected,
      title: r.previouslyRejected?.reason ?? undefined,
      testId: "previously-rejected-badge",
    },
    { flag: "velocity", holds: r.flags.velocity, title: tfh("velocity") },
  ].filter((w) => w.holds);
  return (
    <span className="flex flex-wrap gap-1">
      {r.claim ? (
        // The advisory "I'm reviewing this" claim, while it lasts.
        <Badge variant="secondary" data-testid="claim-badge">
          {r.claim.mine ? tc("badgeMine") : tc("badge", { name: r.claim.by })}
        </Badge>
      ) : null}
      {warnings.map((w) => (
        <Badge key={w.flag} variant="outline" className={warn} title={w.title} data-testid={w.testId}>
          {tf(w.flag)}
        </Badge>
      ))}
      {r.flags.twoApprovals ? (
        <Badge variant="secondary" title={tfh("two_approvals")}>
          {t("approvals", { count: r.approvals, required: r.requiredApprovals })}
        </Badge>
      ) : null}
    </span>
  );
}

/**
 * A row's bulk-reject checkbox (reviewers): a native input the BulkReject island reads — value the proposal id,
 * data-hash the hash shown, so each rejection is bound to what the reviewer saw.
 */
export function SelectBox({ r, label }: { r: QueueRow; label: string }) {
  return (
    <input
      type="checkbox"
      name={BULK_CHECKBOX}
      value={r.id}
      data-hash={r.hash}
      data-order={r.orderNumber}
      aria-label={label}
      className="relative z-10 size-4 accent-primary"
    />
  );
}
