import { DateTime } from "@/components/ui/date-time";
import { ResendDeliveryButton } from "./webhook-delivery-actions";

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

export type DeliveryHistoryHeadings = Record<
  "created" | "target" | "event" | "status" | "attempts" | "lastError" | "nextAttempt" | "done" | "actions",
  string
>;

/**
 * The delivery history table of Admin (webhook deliveries and Slack/e-mail notifications share it): times in the
 * viewer's zone with its label (components/ui/date-time.tsx), a resend button per row that may be sent again.
 */
export function DeliveryHistoryTable({
  labelledBy,
  headings,
  rows,
}: {
  labelledBy: string;
  headings: DeliveryHistoryHeadings;
  rows: DeliveryHistoryRow[];
}) {
  return (
    <table aria-labelledby={labelledBy}>
      <thead>
        <tr>
          <th scope="col">{headings.created}</th>
          <th scope="col">{headings.target}</th>
          <th scope="col">{headings.event}</th>
          <th scope="col">{headings.status}</th>
          <th scope="col">{headings.attempts}</th>
          <th scope="col">{headings.lastError}</th>
          <th scope="col">{headings.nextAttempt}</th>
          <th scope="col">{headings.done}</th>
          <th scope="col">{headings.actions}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((d) => (
          <tr key={d.id} data-delivery-id={d.id}>
            <td>
              <DateTime value={d.createdAt} />
            </td>
            <td>{d.target}</td>
            <td className="mono">{d.event}</td>
            <td>
              <span className={d.failed ? "badge danger" : "badge"}>{d.status}</span>
            </td>
            <td>{d.attempts}</td>
            <td className="mono">{d.lastError}</td>
            <td>{d.nextAttemptAt ? <DateTime value={d.nextAttemptAt} /> : "—"}</td>
            <td>{d.doneAt ? <DateTime value={d.doneAt} /> : "—"}</td>
            <td>{d.resend ? <ResendDeliveryButton path={d.resend.path} id={d.id} label={d.resend.label} /> : null}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
