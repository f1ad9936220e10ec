"use client";

import { useTranslations } from "next-intl";
import type { Draft } from "./draft";
import { CheckBox, SelectBox, TextBox, type ProblemAt } from "./boxes";

type PolicyDraft = Pick<Draft, "approvals" | "stepUp" | "amountKey" | "currencyKey">;

/**
 * The policy: reviewer approvals, step-up, and — when the action moves money — which derived fields hold the amount
 * (minor units) and the currency, chosen among the derived keys typed above (the daily cap counts that amount).
 */
export function PolicyFieldset({
  draft,
  keys,
  onChange,
  problemAt,
}: {
  draft: PolicyDraft;
  keys: string[];
  onChange: (patch: Partial<PolicyDraft>) => void;
  problemAt: ProblemAt;
}) {
  const t = useTranslations("adminActions.form");
  const options = [{ value: "", label: t("noKey") }, ...keys.map((k) => ({ value: k, label: k }))];
  const money = problemAt("policy.money");
  return (
    <fieldset className="min-w-0 rounded-md border p-3">
      <legend className="px-1 font-medium">{t("policy")}</legend>
      <TextBox
        id="declaration-approvals"
        label={t("approvals")}
        hint={t("approvalsHint")}
        value={draft.approvals}
        onChange={(approvals) => onChange({ approvals })}
        problem={problemAt("policy.approvals")}
        type="number"
        min={1}
        max={3}
        required
      />
      <CheckBox
        id="declaration-step-up"
        label={t("stepUp")}
        checked={draft.stepUp}
        onChange={(stepUp) => onChange({ stepUp })}
      />
      <p id="declaration-money-help" className="muted text-sm">
        {t("moneyHint")}
      </p>
      <div className="grid gap-x-4 sm:grid-cols-2">
        <SelectBox
          id="declaration-amount-key"
          label={t("amountKey")}
          value={draft.amountKey}
          onChange={(amountKey) => onChange({ amountKey })}
          options={options}
          problem={money}
        />
        <SelectBox
          id="declaration-currency-key"
          label={t("currencyKey")}
          value={draft.currencyKey}
          onChange={(currencyKey) => onChange({ currencyKey })}
          options={options}
        />
      </div>
    </fieldset>
  );
}
