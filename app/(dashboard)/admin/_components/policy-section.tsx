"use client";

import { useMemo, useState } from "react";
import { useTranslations } from "next-intl";
import { diffPolicy, policyFields, type PolicyField, type PolicyValues } from "@/lib/domain/policy";
import { useAdminRequest } from "./use-admin-request";
import { StepUpField, stepUpValue } from "./step-up-field";
import { FormError } from "./form-error";
import { Money } from "@/components/domain/money";
import { DateTime } from "@/components/ui/date-time";
import { minorToMajorInput, parseMoneyInput, type MoneyInputProblem } from "@/lib/domain/format-money";

type Pending = {
  version: number;
  values: PolicyValues;
  changes: { field: PolicyField; before: number | null; after: number | null; direction: "looser" | "tighter" }[];
  mine: boolean;
} | null;
type History = { version: number; status: string; createdAt: string; decidedAt: string | null }[];

const nullable: readonly PolicyField[] = ["dualApprovalThresholdMinor", "reviewerDailyApprovalLimitMinor"];
/** Amounts: typed and shown in major units of the tenant's currency ("12.50"), stored in minor units. */
const isMoney = (f: PolicyField) => f.endsWith("Minor");

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
  const [draft, setDraft] = useState<Record<PolicyField, string>>(
    () =>
      Object.fromEntries(
        policyFields.map((f) => [
          f,
          values[f] === null ? "" : isMoney(f) ? minorToMajorInput(values[f], currency) : String(values[f]),
        ]),
      ) as Record<PolicyField, string>,
  );
  const propose = useAdminRequest<{ version: number; status: string }>();
  const decide = useAdminRequest<{ version: number; status: string }>();
  const [result, setResult] = useState<string | null>(null);

  // An amount that does not parse keeps the active value (it is left out of the diff) and says why under its field.
  const { parsed, problems } = useMemo(() => {
    const next = { ...values };
    const refused: Partial<Record<PolicyField, MoneyInputProblem>> = {};
    for (const f of policyFields) {
      const raw = draft[f].trim();
      let value: number | null;
      if (raw === "" && nullable.includes(f)) value = null;
      else if (isMoney(f)) {
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
  const show = (f: PolicyField, v: number | null) =>
    v === null ? t("none") : isMoney(f) ? <Money minor={v} currency={currency} /> : String(v);

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
    <section aria-labelledby="policy-title" className="panel stack">
      <h2 id="policy-title">{t("title", { version })}</h2>
      {result ? (
        <p className="notice" role="status">
          {result}
        </p>
      ) : null}
      {pending ? (
        <div className="stack" aria-labelledby="pending-title">
          <h3 id="pending-title">{t("pendingTitle", { version: pending.version })}</h3>
          <ChangeTable changes={pending.changes} show={show} currency={currency} />
          <FormError id="decide-error" error={decide.error} />
          {pending.mine ? (
            <p className="muted">{t("ownPending")}</p>
          ) : (
            <form
              onSubmit={async (e) => {
                e.preventDefault();
                const r = await decide.run(
                  "POST",
                  `/api/admin/policy/${pending.version}/approve`,
                  stepUpValue(new FormData(e.currentTarget)),
                );
                if (r) setResult(t("activeNow", { version: r.version }));
              }}
            >
              <StepUpField id="decide-step-up" show={decide.needsStepUp} />
              <button type="submit" disabled={decide.pending}>
                {t("approve", { version: pending.version })}
              </button>
            </form>
          )}
          <button
            type="button"
            className="secondary"
            disabled={decide.pending}
            onClick={async () =>
              (await decide.run("POST", `/api/admin/policy/${pending.version}/reject`, {})) &&
              setResult(t("rejected", { version: pending.version }))
            }
          >
            {t("reject", { version: pending.version })}
          </button>
        </div>
      ) : null}

      <form onSubmit={onSubmit} aria-labelledby="policy-edit-title">
        <h3 id="policy-edit-title">{t("editTitle")}</h3>
        <p className="muted">{t("editHelp")}</p>
        <div className="grid-2">
          {policyFields.map((f) => (
            <div className="field" key={f}>
              <label htmlFor={`policy-${f}`}>{t(`fields.${f}`, { currency })}</label>
              {isMoney(f) ? (
                <>
                  <div className="flex items-center gap-2">
                    <input
                      id={`policy-${f}`}
                      name={f}
                      type="text"
                      inputMode="decimal"
                      autoComplete="off"
                      value={draft[f]}
                      required={!nullable.includes(f)}
                      placeholder={nullable.includes(f) ? t("none") : undefined}
                      onChange={(e) => setDraft({ ...draft, [f]: e.target.value })}
                      aria-invalid={problems[f] ? true : undefined}
                      aria-describedby={`policy-${f}-amount`}
                    />
                    <span className="mono" aria-hidden="true">
                      {currency}
                    </span>
                  </div>
                  {/* What the typed amount stands for, in the reader's format — or why it cannot be read. */}
                  <p
                    className={problems[f] ? "text-sm text-destructive-foreground" : "muted"}
                    id={`policy-${f}-amount`}
                    data-testid={`policy-${f}-amount`}
                  >
                    {problems[f] ? (
                      t(`moneyProblems.${problems[f]}`, { currency, example: minorToMajorInput(1250, currency) })
                    ) : parsed[f] === null ? (
                      t("none")
                    ) : (
                      <Money minor={parsed[f]} currency={currency} exact />
                    )}
                  </p>
                </>
              ) : (
                <input
                  id={`policy-${f}`}
                  name={f}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  step={1}
                  value={draft[f]}
                  required={!nullable.includes(f)}
                  onChange={(e) => setDraft({ ...draft, [f]: e.target.value })}
                />
              )}
            </div>
          ))}
        </div>
        <h4>{t("diffTitle")}</h4>
        {changes.length === 0 ? (
          <p className="muted">{t("noChanges")}</p>
        ) : (
          <ChangeTable changes={changes} show={show} currency={currency} />
        )}
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
      </form>

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
    </section>
  );
}

function ChangeTable({
  changes,
  show,
  currency,
}: {
  changes: { field: PolicyField; before: number | null; after: number | null; direction: "looser" | "tighter" }[];
  show: (f: PolicyField, v: number | null) => React.ReactNode;
  currency: string;
}) {
  const t = useTranslations("policy");
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
