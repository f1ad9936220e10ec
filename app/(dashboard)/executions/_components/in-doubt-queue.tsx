"use client";

import { useTranslations } from "next-intl";
import type { ExecutionOverview } from "@/lib/schemas/execution-dto";
import { RelativeTime } from "@/components/ui/date-time";
import { DataTable, type Column } from "@/components/ui/data-table";
import { CheckNowButton } from "./check-now-button";
import { ExecutionCardHead, ExecutionLink, ExecutionWhat, byShop, embeddedTableLook, mono } from "./execution-cells";

type InDoubtRow = ExecutionOverview["inDoubt"][number];

/** The executions (refunds and other kinds) whose outcome is not known yet, oldest first, each with "check now" for those who may. */
export function InDoubtQueue({ rows, canReconcile }: { rows: InDoubtRow[]; canReconcile: boolean }) {
  const t = useTranslations("executions");
  const columns: Column<InDoubtRow>[] = [
    {
      id: "order",
      header: t("order"),
      cell: (r) => <ExecutionLink id={r.id} order={r.orderNumber} className="font-medium whitespace-nowrap" />,
    },
    { id: "amount", header: t("amountOrAction"), cell: (r) => <ExecutionWhat r={r} /> },
    { id: "why", header: t("why"), cell: (r) => t(`whys.${r.why}`), className: "whitespace-normal" },
    { id: "age", header: t("age"), cell: (r) => <RelativeTime value={r.createdAt} /> },
    { id: "attempts", header: t("attempts"), cell: (r) => r.attempts },
    { id: "reconciliations", header: t("reconciliations"), cell: (r) => r.reconciliations },
    {
      id: "lastError",
      header: t("lastError"),
      cell: (r) => r.lastError ?? "—",
      className: `whitespace-normal ${mono}`,
    },
    ...(canReconcile
      ? [
          {
            id: "action",
            header: t("action"),
            cell: (r: InDoubtRow) => <CheckNowButton executionId={r.id} order={r.orderNumber} byShop={byShop(r)} />,
            className: "whitespace-normal",
          },
        ]
      : []),
  ];
  return (
    <DataTable
      label={t("inDoubtTitle")}
      columns={columns}
      rows={rows}
      rowAttributes={(r) => ({ "data-execution-id": r.id })}
      {...embeddedTableLook}
      cardAttributes={(r) => ({ "data-execution-card": r.id })}
      card={(r) => (
        <>
          <ExecutionCardHead {...r} />
          <p className="m-0 text-sm">
            {t(`whys.${r.why}`)} · <RelativeTime value={r.createdAt} />
          </p>
          <p className="m-0 text-sm text-muted-foreground">
            {t("attempts")}: {r.attempts} · {t("reconciliations")}: {r.reconciliations}
          </p>
          {r.lastError ? <p className={`m-0 text-muted-foreground ${mono}`}>{r.lastError}</p> : null}
          {canReconcile ? <CheckNowButton executionId={r.id} order={r.orderNumber} byShop={byShop(r)} /> : null}
        </>
      )}
    />
  );
}
