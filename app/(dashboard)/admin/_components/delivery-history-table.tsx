import { getTranslations } from "next-intl/server";
import type { Column } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { ResendDeliveryButton } from "./webhook-delivery-actions";
import { AdminTable } from "./admin-table";

/** One row of a delivery history, whatever the outbox (webhooks or Slack/e-mail): labels already translated. */
export type DeliveryHistoryRow = {
  id: string;
  createdAt: string;
  target: string;
  event: string;
  status: string;
  failed: boolean;
  attempts: number;
  lastError: string;
  nextAttemptAt: string | null;
  doneAt: string | null;
  /** The resend route and the button's accessible name; null when the row cannot be sent again. */
  resend: { path: string; label: string } | null;
};

/** The headings that differ between the two outboxes; the others are the webhook history's. */
export type DeliveryHistoryHeadings = Record<"target" | "event" | "lastError" | "done", string>;

const when = (at: string | null) => (at ? <DateTime value={at} /> : "—");

/**
 * The delivery history table of Admin (webhook deliveries and Slack/e-mail notifications share it): times in the
 * viewer's zone with its label (components/ui/date-time.tsx), a resend button per row that may be sent again.
 * The section's heading names the table; with no delivery, "No deliveries yet" shows instead.
 */
export async function DeliveryHistoryTable({
  label,
  headings: own,
  rows,
}: {
  label: string;
  headings: DeliveryHistoryHeadings;
  rows: DeliveryHistoryRow[];
}) {
  const t = await getTranslations("webhookDeliveries");
  const headings = {
    ...own,
    created: t("created"),
    status: t("status"),
    attempts: t("attempts"),
    nextAttempt: t("nextAttempt"),
    actions: t("actions"),
  };
  const columns: Column<DeliveryHistoryRow>[] = [
    { id: "created", header: headings.created, cell: (d) => <DateTime value={d.createdAt} /> },
    { id: "target", header: headings.target, cell: (d) => d.target },
    { id: "event", header: headings.event, cell: (d) => d.event, className: "mono" },
    {
      id: "status",
      header: headings.status,
      cell: (d) => <span className={d.failed ? "badge danger" : "badge"}>{d.status}</span>,
    },
    { id: "attempts", header: headings.attempts, cell: (d) => d.attempts },
    { id: "lastError", header: headings.lastError, cell: (d) => d.lastError, className: "mono" },
    { id: "nextAttempt", header: headings.nextAttempt, cell: (d) => when(d.nextAttemptAt) },
    { id: "done", header: headings.done, cell: (d) => when(d.doneAt) },
    {
      id: "actions",
      header: headings.actions,
      cell: (d) => (d.resend ? <ResendDeliveryButton path={d.resend.path} id={d.id} label={d.resend.label} /> : null),
    },
  ];
  return (
    <AdminTable
      label={label}
      columns={columns}
      rows={rows}
      rowAttributes={(d) => ({ "data-delivery-id": d.id })}
      empty={<p className="muted">{t("none")}</p>}
    />
  );
}
