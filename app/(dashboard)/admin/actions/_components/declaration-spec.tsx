"use client";

import { useTranslations } from "next-intl";
import type { DeclarationSpec, InputFieldSpec } from "./declaration";

/** An input field's constraint on one line: its pattern or allowed values and length, or its range. */
function useConstraint() {
  const t = useTranslations("adminActions.spec");
  return (f: InputFieldSpec) => {
    if (f.type === "integer") return t("range", { min: f.minimum, max: f.maximum });
    if (f.type === "boolean") return "—";
    const what = f.pattern ? t("pattern", { pattern: f.pattern }) : t("allowed", { values: (f.enum ?? []).join(", ") });
    return f.maxLength !== undefined ? `${what}, ${t("maxLength", { n: f.maxLength })}` : what;
  };
}

/**
 * Everything one declaration version says, for the admin who approves it: the tool and its description, the input
 * the model sends, the derive request, the derived (hashed) fields with their labels and whether the audit keeps them
 * in clear, both sentences, the policy and the action sent to the shop.
 */
export function DeclarationSpecView({ spec }: { spec: DeclarationSpec }) {
  const t = useTranslations("adminActions");
  const f = useTranslations("adminActions.form");
  const constraint = useConstraint();
  const money = spec.policy.money;
  return (
    <div className="stack" data-testid="declaration-spec">
      <dl className="facts">
        <dt>{f("toolName")}</dt>
        <dd>
          <code className="mono">{spec.name}</code>
        </dd>
        <dt>{f("description")}</dt>
        <dd>{spec.description}</dd>
        <dt>{f("derivePath")}</dt>
        <dd className="wrap-anywhere">{t("spec.derive", { path: spec.derive.path })}</dd>
        <dt>{f("sentenceEn")}</dt>
        <dd lang="en">{spec.sentence.en}</dd>
        <dt>{f("sentenceEs")}</dt>
        <dd lang="es">{spec.sentence.es}</dd>
        <dt>{f("policy")}</dt>
        <dd>
          {t("spec.approvals", { count: spec.policy.approvals })} ·{" "}
          {spec.policy.stepUp ? t("spec.stepUp") : t("spec.noStepUp")} ·{" "}
          {money ? t("spec.money", { amount: money.amountKey, currency: money.currencyKey }) : t("spec.noMoney")}
        </dd>
        <dt>{f("action")}</dt>
        <dd>
          <code className="mono">{spec.execute.action}</code>
        </dd>
      </dl>
      <table data-testid="declaration-input">
        <caption className="text-left font-medium">{f("inputFields")}</caption>
        <thead>
          <tr>
            <th scope="col">{f("fieldName")}</th>
            <th scope="col">{f("type")}</th>
            <th scope="col">{f("fieldDescription")}</th>
            <th scope="col">{t("spec.constraint")}</th>
          </tr>
        </thead>
        <tbody>
          {spec.input.map((i) => (
            <tr key={i.name} data-input={i.name}>
              <td>
                <code className="mono">{i.name}</code>
              </td>
              <td>{f(`types.${i.type}`)}</td>
              <td>{i.description}</td>
              <td className="wrap-anywhere">{constraint(i)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table data-testid="declaration-fields">
        <caption className="text-left font-medium">{f("derivedFields")}</caption>
        <thead>
          <tr>
            <th scope="col">{f("key")}</th>
            <th scope="col">{f("pointer")}</th>
            <th scope="col">{f("labelEn")}</th>
            <th scope="col">{f("labelEs")}</th>
            <th scope="col">{t("spec.audit")}</th>
          </tr>
        </thead>
        <tbody>
          {spec.fields.map((d) => (
            <tr key={d.key} data-derived={d.key}>
              <td>
                <code className="mono">{d.key}</code>
              </td>
              <td className="wrap-anywhere">
                <code className="mono">{d.pointer}</code>
              </td>
              <td lang="en">{d.label.en}</td>
              <td lang="es">{d.label.es}</td>
              <td>{d.clear ? t("spec.clear") : t("spec.fingerprint")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
