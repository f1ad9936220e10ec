"use client";

import { useTranslations } from "next-intl";
import type { PolicyField } from "@/lib/domain/policy";
import { Money } from "@/components/domain/money";

export type PolicyChange = {
  field: PolicyField;
  before: number | null;
  after: number | null;
  direction: "looser" | "tighter";
};

/** Amounts: typed and shown in major units of the tenant's currency ("12.50"), stored in minor units. */
export const isMoneyField = (f: PolicyField) => f.endsWith("Minor");

/** A policy change field by field: before, after, and whether it loosens (needs a second admin) or tightens. */
export function ChangeTable({ changes, currency }: { changes: PolicyChange[]; currency: string }) {
  const t = useTranslations("policy");
  const show = (f: PolicyField, v: number | null) =>
    v === null ? t("none") : isMoneyField(f) ? <Money minor={v} currency={currency} /> : String(v);
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">{t("field")}</th>
          <th scope="col">{t("before")}</th>
          <th scope="col">{t("after")}</th>
          <th scope="col">{t("effect")}</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((c) => (
          <tr key={c.field} data-field={c.field}>
            <td>{t(`fields.${c.field}`, { currency })}</td>
            <td className="mono">{show(c.field, c.before)}</td>
            <td className="mono">{show(c.field, c.after)}</td>
            <td>
              {c.direction === "looser" ? (
                <span className="badge flag">{t("looser")}</span>
              ) : (
                <span className="badge">{t("tighter")}</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
