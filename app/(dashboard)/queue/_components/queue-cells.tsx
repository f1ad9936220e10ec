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
  return (
    <span className="flex flex-wrap gap-1">
      {r.claim ? (
        // The advisory "I'm reviewing this" claim, while it lasts.
        <Badge variant="secondary" data-testid="claim-badge">
          {r.claim.mine ? tc("badgeMine") : tc("badge", { name: r.claim.by })}
        </Badge>
      ) : null}
      {r.flags.duplicate ? (
        <Badge variant="outline" className={warn} title={tfh("duplicate")}>
          {tf("duplicate")}
        </Badge>
      ) : null}
      {r.previouslyRejected ? (
        <Badge
          variant="outline"
          className={warn}
          title={r.previouslyRejected.reason ?? undefined}
          data-testid="previously-rejected-badge"
        >
          {tf("previouslyRejected")}
        </Badge>
      ) : null}
      {r.flags.velocity ? (
        <Badge variant="outline" className={warn} title={tfh("velocity")}>
          {tf("velocity")}
        </Badge>
      ) : null}
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
