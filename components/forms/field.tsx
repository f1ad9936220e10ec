import type { ComponentProps, ReactNode } from "react";

/** What the control of a field must carry so that its label, hint and error reach assistive technology. */
export type FieldControlProps = { id: string; "aria-describedby"?: string; "aria-invalid"?: true };

export type FieldOptions = {
  /** The control's id: the label points at it, and the hint is `<id>-help` unless `hintId` names another. */
  id: string;
  label: ReactNode;
  /** A line under the control that describes it (format, limits). */
  hint?: ReactNode;
  hintId?: string;
  /** The control's value was refused: marks it `aria-invalid`. */
  invalid?: boolean;
  /** Ids of messages shown elsewhere that also describe the control (a form's error box). */
  describedBy?: (string | null | undefined)[];
};

/** The ids that describe a control, in reading order: its hint, then any message shown elsewhere. */
export function describedByIds(hintId: string | null, others: FieldOptions["describedBy"] = []): string | undefined {
  const ids = [hintId, ...others].filter((v): v is string => !!v);
  return ids.length ? ids.join(" ") : undefined;
}

/**
 * One form field: label, control, hint, with the ids between them wired (`htmlFor`, `aria-describedby`,
 * `aria-invalid`), so every form says the same thing to a screen reader. The control is the caller's (an input,
 * a select, a textarea): it receives the props it must spread.
 */
export function Field({
  id,
  label,
  hint,
  hintId = `${id}-help`,
  invalid,
  describedBy,
  className = "field",
  hintClassName = "muted",
  children,
}: FieldOptions & {
  className?: string;
  hintClassName?: string;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const control: FieldControlProps = {
    id,
    "aria-describedby": describedByIds(hint ? hintId : null, describedBy),
    ...(invalid ? { "aria-invalid": true as const } : {}),
  };
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      {children(control)}
      {hint ? (
        <p id={hintId} className={hintClassName}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A required text box the browser must not autofill (names, labels, keys an admin types); spread it first. */
export const requiredText = { type: "text", required: true, autoComplete: "off" } as const;

/** A `Field` whose control is a plain `<input>`; every other prop goes to the input. */
export function InputField({
  id,
  label,
  hint,
  hintId,
  invalid,
  describedBy,
  ...input
}: FieldOptions & Omit<ComponentProps<"input">, "id" | "aria-describedby" | "aria-invalid">) {
  return (
    <Field id={id} label={label} hint={hint} hintId={hintId} invalid={invalid} describedBy={describedBy}>
      {(control) => <input {...input} {...control} />}
    </Field>
  );
}
