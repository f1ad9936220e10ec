"use client";

import { useTranslations } from "next-intl";
import { inputTypes, type InputDraft, type InputType } from "./draft";
import { SelectBox, TextBox, DraftRow, type ProblemAt } from "./boxes";

/**
 * One input field the model sends, in its own fieldset: name, type and description, then the boxes its type takes
 * (a string: pattern or allowed values and a maximum length; an integer: its bounds; a boolean: nothing more).
 */
export function InputFieldRow({
  field,
  index,
  onChange,
  onRemove,
  problemAt,
  focusFirst = false,
}: {
  field: InputDraft;
  index: number;
  onChange: (next: InputDraft) => void;
  onRemove: (() => void) | null;
  problemAt: ProblemAt;
  /** The row was just added: its first box takes the focus. */
  focusFirst?: boolean;
}) {
  const t = useTranslations("adminActions.form");
  const id = (box: string) => `input-${field.uid}-${box}`;
  const at = (box: string) => problemAt(`input.${index}.${box}`);
  const set = (patch: Partial<InputDraft>) => onChange({ ...field, ...patch });
  const n = index + 1;
  return (
    <DraftRow
      legend={t("inputField", { n })}
      removeLabel={t("removeInput", { n })}
      onRemove={onRemove}
      data-input-row={index}
    >
      <div className="grid gap-x-4 sm:grid-cols-2">
        <TextBox
          id={id("name")}
          autoFocus={focusFirst}
          label={t("fieldName")}
          value={field.name}
          onChange={(name) => set({ name })}
          problem={at("name")}
          required
          maxLength={40}
        />
        <SelectBox
          id={id("type")}
          label={t("type")}
          value={field.type}
          onChange={(type) => set({ type: type as InputType })}
          options={inputTypes.map((v) => ({ value: v, label: t(`types.${v}`) }))}
        />
      </div>
      <TextBox
        id={id("description")}
        label={t("fieldDescription")}
        value={field.description}
        onChange={(description) => set({ description })}
        problem={at("description")}
        required
        maxLength={500}
      />
      {field.type === "string" ? (
        <div className="grid gap-x-4 sm:grid-cols-2">
          <TextBox
            id={id("pattern")}
            label={t("pattern")}
            hint={t("patternHint")}
            value={field.pattern}
            onChange={(pattern) => set({ pattern })}
            problem={at("pattern")}
            className="mono"
            maxLength={200}
          />
          <TextBox
            id={id("enum")}
            label={t("allowedValues")}
            hint={t("allowedValuesHint")}
            value={field.allowed}
            onChange={(allowed) => set({ allowed })}
            problem={at("enum")}
          />
          <TextBox
            id={id("maxLength")}
            label={t("maxLength")}
            hint={t("maxLengthHint")}
            value={field.maxLength}
            onChange={(maxLength) => set({ maxLength })}
            problem={at("maxLength")}
            type="number"
            min={1}
            max={200}
          />
        </div>
      ) : null}
      {field.type === "integer" ? (
        <div className="grid gap-x-4 sm:grid-cols-2">
          <TextBox
            id={id("minimum")}
            label={t("minimum")}
            value={field.minimum}
            onChange={(minimum) => set({ minimum })}
            problem={at("minimum")}
            type="number"
            required
          />
          <TextBox
            id={id("maximum")}
            label={t("maximum")}
            value={field.maximum}
            onChange={(maximum) => set({ maximum })}
            problem={at("maximum")}
            type="number"
            required
          />
        </div>
      ) : null}
    </DraftRow>
  );
}
