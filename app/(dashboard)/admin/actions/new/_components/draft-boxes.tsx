"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { emptyDerived, emptyInput, type Draft } from "./draft";
import { TextArea, TextBox, type ProblemAt } from "./boxes";
import { DerivedFieldRow } from "./derived-field-row";
import { InputFieldRow } from "./input-field-row";
import { PolicyFieldset } from "./policy-fieldset";
import { ClientButton } from "@/components/ui/client-button";

const MAX_INPUT = 8;
const MAX_DERIVED = 12;

/** Every box of the draft, in the order the contract lists them; rows of input and derived fields added and removed. */
export function DraftBoxes({
  draft,
  setDraft,
  problemAt,
}: {
  draft: Draft;
  setDraft: (update: (d: Draft) => Draft) => void;
  problemAt: ProblemAt;
}) {
  const t = useTranslations("adminActions.form");
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  // A row just added takes the focus (its first box), so the keyboard goes on where the new boxes are.
  const [added, setAdded] = useState<number | null>(null);
  const keys = [...new Set(draft.fields.map((f) => f.key.trim()).filter(Boolean))];
  return (
    <>
      <TextBox
        id="declaration-name"
        label={t("toolName")}
        hint={t("toolNameHint")}
        value={draft.name}
        onChange={(name) => set({ name })}
        problem={problemAt("name")}
        className="mono"
        required
        maxLength={48}
      />
      <TextArea
        id="declaration-description"
        label={t("description")}
        hint={t("descriptionHint")}
        value={draft.description}
        onChange={(description) => set({ description })}
        problem={problemAt("description")}
        maxLength={1000}
      />
      <fieldset className="stack min-w-0" aria-describedby="declaration-input-help">
        <legend className="font-medium">{t("inputFields")}</legend>
        <p id="declaration-input-help" className="muted m-0 text-sm">
          {problemAt("input") ?? t("inputFieldsHint")}
        </p>
        {draft.input.map((f, i) => (
          <InputFieldRow
            key={f.uid}
            focusFirst={f.uid === added}
            field={f}
            index={i}
            problemAt={problemAt}
            onChange={(next) => setDraft((d) => ({ ...d, input: d.input.map((x) => (x.uid === f.uid ? next : x)) }))}
            onRemove={
              draft.input.length > 1
                ? () => setDraft((d) => ({ ...d, input: d.input.filter((x) => x.uid !== f.uid) }))
                : null
            }
          />
        ))}
        {draft.input.length < MAX_INPUT ? (
          <div>
            <ClientButton
              type="button"
              className="secondary"
              onClick={() => {
                const row = emptyInput();
                setAdded(row.uid);
                set({ input: [...draft.input, row] });
              }}
            >
              {t("addInput")}
            </ClientButton>
          </div>
        ) : null}
      </fieldset>
      <TextBox
        id="declaration-derive-path"
        label={t("derivePath")}
        hint={t("derivePathHint")}
        value={draft.derivePath}
        onChange={(derivePath) => set({ derivePath })}
        problem={problemAt("derive.path")}
        className="mono"
        required
        maxLength={300}
      />
      <fieldset className="stack min-w-0" aria-describedby="declaration-derived-help">
        <legend className="font-medium">{t("derivedFields")}</legend>
        <p id="declaration-derived-help" className="muted m-0 text-sm">
          {problemAt("fields") ?? t("derivedFieldsHint")}
        </p>
        {draft.fields.map((f, i) => (
          <DerivedFieldRow
            key={f.uid}
            focusFirst={f.uid === added}
            field={f}
            index={i}
            problemAt={problemAt}
            onChange={(next) => setDraft((d) => ({ ...d, fields: d.fields.map((x) => (x.uid === f.uid ? next : x)) }))}
            onRemove={
              draft.fields.length > 1
                ? () => setDraft((d) => ({ ...d, fields: d.fields.filter((x) => x.uid !== f.uid) }))
                : null
            }
          />
        ))}
        {draft.fields.length < MAX_DERIVED ? (
          <div>
            <ClientButton
              type="button"
              className="secondary"
              onClick={() => set({ fields: [...draft.fields, emptyDerived()] })}
            >
              {t("addDerived")}
            </ClientButton>
          </div>
        ) : null}
      </fieldset>
      {(["en", "es"] as const).map((locale) => (
        <TextBox
          key={locale}
          id={`declaration-sentence-${locale}`}
          label={t(locale === "en" ? "sentenceEn" : "sentenceEs")}
          hint={t("sentenceHint")}
          value={locale === "en" ? draft.sentenceEn : draft.sentenceEs}
          onChange={(v) => set(locale === "en" ? { sentenceEn: v } : { sentenceEs: v })}
          problem={problemAt(`sentence.${locale}`)}
          lang={locale}
          required
          maxLength={300}
        />
      ))}
      <PolicyFieldset draft={draft} keys={keys} onChange={set} problemAt={problemAt} />
      <TextBox
        id="declaration-action"
        label={t("action")}
        hint={t("actionHint")}
        value={draft.action}
        onChange={(action) => set({ action })}
        problem={problemAt("execute.action")}
        className="mono"
        required
        maxLength={61}
      />
    </>
  );
}
