"use client";

import { useLocale, useTranslations } from "next-intl";
import type { ExecutionDetail } from "@/lib/schemas/execution-dto";
import { cn } from "@/lib/utils";
import { reviewFieldLabel, type LocalizedLabel } from "@/lib/i18n/review-label";

/** Another kind's action as its review presents it from the hashed params: labelled fields, before → after. */
export function KindFields({ kind, fields }: { kind: string; fields: ExecutionDetail["proposal"]["fields"] }) {
  const td = useTranslations("executions.detail");
  const tk = useTranslations("kinds");
  const locale = useLocale();
  const label = (f: { key: string; label?: LocalizedLabel }) =>
    reviewFieldLabel(f, locale, (key) => (tk.has(`${kind}.fields.${key}`) ? tk(`${kind}.fields.${key}`) : key));
  const hasBefore = fields.some((f) => f.before !== null);
  return (
    <table className="w-full text-sm" data-testid="execution-kind-fields">
      <caption className="sr-only">{td("kindFieldsCaption")}</caption>
      <thead>
        <tr>
          <th scope="col" className="text-left text-xs font-normal text-muted-foreground">
            {td("kindField")}
          </th>
          {hasBefore ? (
            <th scope="col" className="text-left text-xs font-normal text-muted-foreground">
              {td("kindBefore")}
            </th>
          ) : null}
          <th scope="col" className="text-left text-xs font-normal text-muted-foreground">
            {hasBefore ? td("kindAfter") : td("kindValue")}
          </th>
        </tr>
      </thead>
      <tbody>
        {fields.map((f) => (
          <tr key={f.key} data-field={f.key} data-changed={f.changed ? "true" : undefined}>
            <th scope="row" className="pr-3 text-left align-top font-normal text-muted-foreground">
              {label(f)}
            </th>
            {hasBefore ? (
              <td className={cn("pr-3 align-top", f.changed && "line-through opacity-70")}>{f.before ?? "—"}</td>
            ) : null}
            <td className={cn("align-top", f.changed && "font-semibold")}>
              {f.after ?? "—"}
              {f.changed ? <span className="sr-only"> ({td("kindChanged")})</span> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
