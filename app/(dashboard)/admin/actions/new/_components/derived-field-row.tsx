"use client";

import { useTranslations } from "next-intl";
import type { DerivedDraft } from "./draft";
import { CheckBox, TextBox, DraftRow, type ProblemAt } from "./boxes";

/** One derived (hashed) field picked from the derive answer: key, JSON pointer, both labels, clear or fingerprint. */
export function DerivedFieldRow({
  field,
  index,
  onChange,
  onRemove,
  problemAt,
  focusFirst = false,
}: {
  field: DerivedDraft;
  index: number;
  onChange: (next: DerivedDraft) => void;
  onRemove: (() => void) | null;
  problemAt: ProblemAt;
  /** The row was just added: its first box takes the focus. */
  focusFirst?: boolean;
}) {
  const t = useTranslations("adminActions.form");
  const id = (box: string) => `derived-${field.uid}-${box}`;
  const at = (box: string) => problemAt(`fields.${index}.${box}`);
  const set = (patch: Partial<DerivedDraft>) => onChange({ ...field, ...patch });
  const n = index + 1;
  return (
    <DraftRow
      legend={t("derivedField", { n })}
      removeLabel={t("removeDerived", { n })}
      onRemove={onRemove}
      data-derived-row={index}
    >
      <div className="grid gap-x-4 sm:grid-cols-2">
        <TextBox
          id={id("key")}
          autoFocus={focusFirst}
          label={t("key")}
          hint={t("keyHint")}
          value={field.key}
          onChange={(key) => set({ key })}
          problem={at("key")}
          required
          maxLength={40}
          className="mono"
        />
        <TextBox
          id={id("pointer")}
          label={t("pointer")}
          hint={t("pointerHint")}
          value={field.pointer}
          onChange={(pointer) => set({ pointer })}
          problem={at("pointer")}
          className="mono"
        />
        <TextBox
          id={id("label-en")}
          label={t("labelEn")}
          value={field.labelEn}
          onChange={(labelEn) => set({ labelEn })}
          problem={at("label.en")}
          required
          maxLength={100}
          lang="en"
        />
        <TextBox
          id={id("label-es")}
          label={t("labelEs")}
          value={field.labelEs}
          onChange={(labelEs) => set({ labelEs })}
          problem={at("label.es")}
          required
          maxLength={100}
          lang="es"
        />
      </div>
      <CheckBox
        id={id("clear")}
        label={t("clear")}
        hint={t("clearHint")}
        checked={field.clear}
        onChange={(clear) => set({ clear })}
      />
    </DraftRow>
  );
}
