"use client";

import type * as React from "react";
import { useTranslations } from "next-intl";
import type { PolicyField } from "@/lib/domain/policy";
import { Money } from "@/components/domain/money";
import type { Column } from "@/components/ui/data-table";
import { AdminTable } from "./admin-table";

export type PolicyChange = {
  field: PolicyField;
  before: number | null;
  after: number | null;
  direction: "looser" | "tighter";
};

/** Amounts: typed and shown in major units of the tenant's currency ("12.50"), stored in minor units. */
export const isMoneyField = (f: PolicyField) => f.endsWith("Minor");

/**
 * A policy change field by field: before, after, and whether it loosens (needs a second admin) or tightens;
 * `label` is the heading above it (the draft's "Changes" or the pending version's title).
 */
export function ChangeTable({
  label,
  changes,
  currency,
  empty,
}: {
  label: string;
  changes: PolicyChange[];
  currency: string;
  empty?: React.ReactNode;
}) {
  const t = useTranslations("policy");
  const show = (f: PolicyField, v: number | null) =>
    v === null ? t("none") : isMoneyField(f) ? <Money minor={v} currency={currency} /> : String(v);
  const columns: Column<PolicyChange>[] = [
    { id: "field", header: t("field"), cell: (c) => t(`fields.${c.field}`, { currency }) },
    { id: "before", header: t("before"), cell: (c) => show(c.field, c.before), className: "mono" },
    { id: "after", header: t("after"), cell: (c) => show(c.field, c.after), className: "mono" },
    {
      id: "effect",
      header: t("effect"),
      cell: (c) =>
        c.direction === "looser" ? (
          <span className="badge flag">{t("looser")}</span>
        ) : (
          <span className="badge">{t("tighter")}</span>
        ),
    },
  ];
  return (
    <AdminTable
      label={label}
      columns={columns}
      rows={changes}
      rowKey={(c) => c.field}
      rowAttributes={(c) => ({ "data-field": c.field })}
      empty={empty}
    />
  );
}
