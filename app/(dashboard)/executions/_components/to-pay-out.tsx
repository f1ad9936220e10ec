"use client";

import { useTranslations } from "next-intl";
import type { ToPayOutRow } from "@/lib/schemas/execution-dto";
import { Money } from "@/components/domain/money";
import { RelativeTime } from "@/components/ui/date-time";
import { DataTable, type Column } from "@/components/ui/data-table";
import { ExecutionCardHead, ExecutionLink, embeddedTableLook } from "./execution-cells";

/**
 * Manual payouts ops have to make (payments no provider holds: bank transfer, store credit), oldest first: what to
 * pay to whom; each opens the execution, where the transfer's reference is recorded (and confirmed by a second
 * person at or above four-eyes).
 */
export function ToPayOut({ rows }: { rows: ToPayOutRow[] }) {
  const t = useTranslations("executions");
  const stage = (r: ToPayOutRow) => (r.awaitingConfirmation ? t("payout.awaitingConfirmation") : t("payout.toPay"));
  const columns: Column<ToPayOutRow>[] = [
    {
      id: "order",
      header: t("order"),
      cell: (r) => <ExecutionLink id={r.id} order={r.orderNumber} className="font-medium whitespace-nowrap" />,
    },
    { id: "amount", header: t("amount"), cell: (r) => <Money minor={r.amountMinor} currency={r.currency} /> },
    {
      id: "recipient",
      header: t("payout.recipient"),
      cell: (r) => `${r.recipientHolder} · ${r.recipientDisplay}`,
      className: "whitespace-normal",
    },
    { id: "stage", header: t("payout.stage"), cell: stage, className: "whitespace-normal" },
    { id: "age", header: t("age"), cell: (r) => <RelativeTime value={r.createdAt} /> },
  ];
  return (
    <DataTable
      label={t("payout.listTitle")}
      columns={columns}
      rows={rows}
      rowAttributes={(r) => ({ "data-payout-id": r.id })}
      {...embeddedTableLook}
      cardAttributes={(r) => ({ "data-payout-card": r.id })}
      card={(r) => (
        <>
          <ExecutionCardHead {...r} />
          <p className="m-0 text-sm">
            {r.recipientHolder} · {r.recipientDisplay}
          </p>
          <p className="m-0 text-sm text-muted-foreground">
            {stage(r)} · <RelativeTime value={r.createdAt} />
          </p>
        </>
      )}
    />
  );
}
