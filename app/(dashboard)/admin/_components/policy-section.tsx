"use client";

import { ClientForm } from "@/components/forms/client-form";
import { useMemo, useState } from "react";
import { useTranslations } from "next-intl";
import {
  approvalSessionWindow,
  diffPolicy,
  policyFields,
  policyWarnings,
  type PolicyField,
  type PolicyValues,
} from "@/lib/domain/policy";
import { Section } from "@/components/page/section";
import { Notice } from "@/components/forms/notice";
import { useAdminRequest } from "./use-admin-request";
import { StepUpField, stepUpValue } from "./step-up-field";
import { FormError } from "./form-error";
import { ChangeTable, isMoneyField } from "./policy-change-table";
import { nullablePolicyFields, PolicyFieldInput } from "./policy-field-input";
import { PolicyPending, type PendingPolicy } from "./policy-pending";
import { DateTime } from "@/components/ui/date-time";
import { minorToMajorInput, parseMoneyInput, type MoneyInputProblem } from "@/lib/domain/format-money";

type Pending = (PendingPolicy & { values: PolicyValues }) | null;
type History = { version: number; status: string; createdAt: string; decidedAt: string | null }[];

/** Tenant policy: the active version, an edit form with a live diff, the change awaiting a second admin, history. */
export function PolicySection({
  version,
  values,
  pending,
  history,
  currency,
}: {
  version: number;
  values: PolicyValues;
  pending: Pending;
  history: History;
  currency: string;
}) {
  const t = useTranslations("policy");
  // A control that is off is said while it is (the safe values a new tenant starts with: docs/operations.md).
  const warnings = policyWarnings(values);
  const [draft, setDraft] = useState<Record<PolicyField, string>>(
    () =>
      Object.fromEntries(
        policyFields.map((f) => [
          f,
          values[f] === null ? "" : isMoneyField(f) ? minorToMajorInput(values[f], currency) : String(values[f]),
        ]),
      ) as Record<PolicyField, string>,
  );
  const propose = useAdminRequest<{ version: number; status: string }>();
  const [result, setResult] = useState<string | null>(null);

  // An amount that does not parse keeps the active value (it is left out of the diff) and says why under its field.
  const { parsed, problems } = useMemo(() => {
    const next = { ...values };
    const refused: Partial<Record<PolicyField, MoneyInputProblem>> = {};
    for (const f of policyFields) {
      const raw = draft[f].trim();
      let value: number | null;
      if (raw === "" && nullablePolicyFields.includes(f)) value = null;
      else if (isMoneyField(f)) {
        const money = parseMoneyInput(raw, currency);
        if (!money.ok) refused[f] = money.problem;
        value = money.ok ? money.minor : values[f];
      } else value = Number(raw);
      (next as Record<string, number | null>)[f] = value;
    }
    return { parsed: next, problems: refused };
  }, [draft, values, currency]);
  const changes = useMemo(() => diffPolicy(values, parsed), [values, parsed]);
  const invalid = Object.keys(problems).length > 0;
  const [showInvalid, setShowInvalid] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setResult(null);
    if (invalid) {
      setShowInvalid(true);
      document.getElementById(`policy-${Object.keys(problems)[0]}`)?.focus();
      return;
    }
    const changed = Object.fromEntries(changes.map((c) => [c.field, c.after]));
    const r = await propose.run("POST", "/api/admin/policy", {
      values: changed,
      ...stepUpValue(new FormData(event.currentTarget)),
    });
    if (r)
      setResult(r.status === "active" ? t("activeNow", { version: r.version }) : t("waits", { version: r.version }));
  }

  return (
    <Section titleId="policy-title" title={t("title", { version })} className="panel stack">
      <Notice>{result}</Notice>
      {warnings.length > 0 ? (
        <div
          className="rounded-md border border-warning-foreground/40 bg-warning px-3 py-2 text-warning-foreground"
          role="note"
          aria-labelledby="policy-warnings-title"
          data-testid="policy-warnings"
        >
          <h3 id="policy-warnings-title">{t("warningsTitle")}</h3>
          <ul>
            {warnings.map((w) => (
              <li key={w}>{t(`warnings.${w}`, { minutes: approvalSessionWindow(values) })}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {pending ? <PolicyPending pending={pending} currency={currency} onResult={setResult} /> : null}

      <ClientForm onSubmit={onSubmit} aria-labelledby="policy-edit-title">
        <h3 id="policy-edit-title">{t("editTitle")}</h3>
        <p className="muted">{t("editHelp")}</p>
        <div className="grid-2">
          {policyFields.map((f) => (
            <PolicyFieldInput
              key={f}
              f={f}
              currency={currency}
              draft={draft}
              setDraft={setDraft}
              value={parsed[f]}
              problem={problems[f]}
            />
          ))}
        </div>
        <h4>{t("diffTitle")}</h4>
        <ChangeTable
          label={t("diffTitle")}
          changes={changes}
          currency={currency}
          empty={<p className="muted">{t("noChanges")}</p>}
        />
        {changes.some((c) => c.direction === "looser") ? <p className="badge flag">{t("needsSecond")}</p> : null}
        {invalid && showInvalid ? (
          <p className="error-box" role="alert" id="policy-invalid">
            {t("fixAmounts")}
          </p>
        ) : null}
        <FormError id="policy-error" error={propose.error} />
        <StepUpField id="policy-step-up" show={propose.needsStepUp} />
        <button type="submit" disabled={propose.pending || (changes.length === 0 && !invalid)}>
          {t("save")}
        </button>
      </ClientForm>

      <details>
        <summary>{t("history")}</summary>
        <ul>
          {history.map((h) => (
            <li key={h.version}>
              {t("historyItem", { version: h.version, status: t(`status.${h.status}`) })}{" "}
              <DateTime className="muted" value={h.decidedAt ?? h.createdAt} />
            </li>
          ))}
        </ul>
      </details>
    </Section>
  );
}
