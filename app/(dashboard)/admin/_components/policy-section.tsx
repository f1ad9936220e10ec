"use client";

import { useMemo, useState } from "react";
import { useTranslations } from "next-intl";
import { diffPolicy, policyFields, type PolicyField, type PolicyValues } from "@/lib/domain/policy";
import { useAdminRequest } from "./use-admin-request";
import { StepUpField, stepUpValue } from "./step-up-field";
import { FormError } from "./form-error";
import { Money } from "@/components/domain/money";

type Pending = {
  version: number;
  values: PolicyValues;
  changes: { field: PolicyField; before: number | null; after: number | null; direction: "looser" | "tighter" }[];
  mine: boolean;
} | null;
type History = { version: number; status: string; createdAt: string; decidedAt: string | null }[];

const nullable: readonly PolicyField[] = ["dualApprovalThresholdMinor", "reviewerDailyApprovalLimitMinor"];

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
    () => Object.fromEntries(policyFields.map((f) => [f, values[f] === null ? "" : String(values[f])])) as Record<PolicyField, string>,
  );
  const propose = useAdminRequest<{ version: number; status: string }>();
  const decide = useAdminRequest<{ version: number; status: string }>();
  const [result, setResult] = useState<string | null>(null);

  const parsed = useMemo(() => {
    const next = { ...values };
    for (const f of policyFields) {
      const raw = draft[f].trim();
      (next as Record<string, number | null>)[f] = raw === "" && nullable.includes(f) ? null : Number(raw);
    }
    return next;
  }, [draft, values]);
  const changes = useMemo(() => diffPolicy(values, parsed), [values, parsed]);
  const show = (v: number | null) => (v === null ? t("none") : String(v));

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setResult(null);
    const changed = Object.fromEntries(changes.map((c) => [c.field, c.after]));
    const r = await propose.run("POST", "/api/admin/policy", { values: changed, ...stepUpValue(new FormData(event.currentTarget)) });
    if (r) setResult(r.status === "active" ? t("activeNow", { version: r.version }) : t("waits", { version: r.version }));
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
          <ChangeTable changes={pending.changes} show={show} />
          <FormError id="decide-error" error={decide.error} />
          {pending.mine ? (
            <p className="muted">{t("ownPending")}</p>
          ) : (
            <form
              onSubmit={async (e) => {
                e.preventDefault();
                const r = await decide.run("POST", `/api/admin/policy/${pending.version}/approve`, stepUpValue(new FormData(e.currentTarget)));
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
              (await decide.run("POST", `/api/admin/policy/${pending.version}/reject`, {})) && setResult(t("rejected", { version: pending.version }))
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
              <input
                id={`policy-${f}`}
                name={f}
                type="number"
                inputMode="numeric"
                min={0}
                step={1}
                value={draft[f]}
                required={!nullable.includes(f)}
                placeholder={nullable.includes(f) ? t("none") : undefined}
                onChange={(e) => setDraft({ ...draft, [f]: e.target.value })}
                aria-describedby={f.endsWith("Minor") ? `policy-${f}-amount` : undefined}
              />
              {f.endsWith("Minor") ? (
                // Minor units are easy to misread: the amount they stand for, in the reader's format.
                <p className="muted" id={`policy-${f}-amount`}>
                  {/^\d+$/.test(draft[f].trim()) ? <Money minor={Number(draft[f].trim())} currency={currency} /> : t("none")}
                </p>
              ) : null}
            </div>
          ))}
        </div>
        <h4>{t("diffTitle")}</h4>
        {changes.length === 0 ? <p className="muted">{t("noChanges")}</p> : <ChangeTable changes={changes} show={show} />}
        {changes.some((c) => c.direction === "looser") ? <p className="badge flag">{t("needsSecond")}</p> : null}
        <FormError id="policy-error" error={propose.error} />
        <StepUpField id="policy-step-up" show={propose.needsStepUp} />
        <button type="submit" disabled={propose.pending || changes.length === 0}>
          {t("save")}
        </button>
      </form>

      <details>
        <summary>{t("history")}</summary>
        <ul>
          {history.map((h) => (
            <li key={h.version}>
              {t("historyItem", { version: h.version, status: t(`status.${h.status}`) })} <span className="muted mono">{h.decidedAt ?? h.createdAt}</span>
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
}: {
  changes: { field: PolicyField; before: number | null; after: number | null; direction: "looser" | "tighter" }[];
  show: (v: number | null) => string;
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
            <td>{t(`fields.${c.field}`, { currency: "" })}</td>
            <td className="mono">{show(c.before)}</td>
            <td className="mono">{show(c.after)}</td>
            <td>{c.direction === "looser" ? <span className="badge flag">{t("looser")}</span> : <span className="badge">{t("tighter")}</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
