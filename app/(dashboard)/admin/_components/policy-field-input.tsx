"use client";

import { useTranslations } from "next-intl";
import type { PolicyField } from "@/lib/domain/policy";
import { minorToMajorInput, type MoneyInputProblem } from "@/lib/domain/format-money";
import { Money } from "@/components/domain/money";
import { isMoneyField } from "./policy-change-table";

/** Thresholds an admin may clear (no limit); the others are required. */
export const nullablePolicyFields: readonly PolicyField[] = [
  "dualApprovalThresholdMinor",
  "reviewerDailyApprovalLimitMinor",
];

type Props = {
  f: PolicyField;
  currency: string;
  draft: Record<PolicyField, string>;
  setDraft: (draft: Record<PolicyField, string>) => void;
  /** What the draft reads as (the active value while it does not parse). */
  value: number | null;
  problem: MoneyInputProblem | undefined;
};

/** One policy field: an amount in major units with what it reads as (or why not), or a whole number. */
export function PolicyFieldInput({ f, currency, draft, setDraft, value, problem }: Props) {
  const t = useTranslations("policy");
  return (
    <div className="field">
      <label htmlFor={`policy-${f}`}>{t(`fields.${f}`, { currency })}</label>
      {isMoneyField(f) ? (
        <>
          <div className="flex items-center gap-2">
            <input
              id={`policy-${f}`}
              name={f}
              type="text"
              inputMode="decimal"
              autoComplete="off"
              value={draft[f]}
              required={!nullablePolicyFields.includes(f)}
              placeholder={nullablePolicyFields.includes(f) ? t("none") : undefined}
              onChange={(e) => setDraft({ ...draft, [f]: e.target.value })}
              aria-invalid={problem ? true : undefined}
              aria-describedby={`policy-${f}-amount`}
            />
            <span className="mono" aria-hidden="true">
              {currency}
            </span>
          </div>
          {/* What the typed amount stands for, in the reader's format — or why it cannot be read. */}
          <p
            className={problem ? "text-sm text-destructive-foreground" : "muted"}
            id={`policy-${f}-amount`}
            data-testid={`policy-${f}-amount`}
          >
            {problem ? (
              t(`moneyProblems.${problem}`, { currency, example: minorToMajorInput(1250, currency) })
            ) : value === null ? (
              t("none")
            ) : (
              <Money minor={value} currency={currency} exact />
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
          required={!nullablePolicyFields.includes(f)}
          onChange={(e) => setDraft({ ...draft, [f]: e.target.value })}
        />
      )}
    </div>
  );
}
