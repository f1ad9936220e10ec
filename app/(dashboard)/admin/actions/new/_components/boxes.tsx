"use client";

import type { ComponentProps, ReactNode } from "react";
import { Field, InputField } from "@/components/forms/field";
import { ClientButton } from "@/components/ui/client-button";

/** The message of the problem at a box's path (the form's own check or the server's), or undefined. */
export type ProblemAt = (path: string) => string | undefined;

type Common = { id: string; label: ReactNode; hint?: ReactNode; problem?: string; formErrorId?: string };

/** The problem under a box, tied to it by `aria-describedby`. */
function Problem({ id, problem }: { id: string; problem?: string }) {
  if (!problem) return null;
  return (
    <p id={`${id}-problem`} className="-mt-3 mb-4 text-sm text-destructive-foreground">
      {problem}
    </p>
  );
}

const describedBy = (id: string, problem: string | undefined) => (problem ? [`${id}-problem`] : []);

/** A labelled text (or number) box bound to a draft string. */
export function TextBox({
  id,
  label,
  hint,
  problem,
  value,
  onChange,
  ...input
}: Common & { value: string; onChange: (v: string) => void } & Omit<
    ComponentProps<"input">,
    "id" | "value" | "onChange"
  >) {
  return (
    <div className="min-w-0">
      <InputField
        id={id}
        label={label}
        hint={hint}
        invalid={!!problem}
        describedBy={describedBy(id, problem)}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        autoComplete="off"
        {...input}
      />
      <Problem id={id} problem={problem} />
    </div>
  );
}

/** A labelled multi-line box bound to a draft string. */
export function TextArea({
  id,
  label,
  hint,
  problem,
  value,
  onChange,
  maxLength,
}: Common & { value: string; onChange: (v: string) => void; maxLength?: number }) {
  return (
    <div className="min-w-0">
      <Field id={id} label={label} hint={hint} invalid={!!problem} describedBy={describedBy(id, problem)}>
        {(control) => (
          <textarea {...control} value={value} maxLength={maxLength} onChange={(e) => onChange(e.target.value)} />
        )}
      </Field>
      <Problem id={id} problem={problem} />
    </div>
  );
}

/** A labelled select bound to a draft string. */
export function SelectBox({
  id,
  label,
  hint,
  problem,
  value,
  onChange,
  options,
}: Common & { value: string; onChange: (v: string) => void; options: { value: string; label: string }[] }) {
  return (
    <div className="min-w-0">
      <Field id={id} label={label} hint={hint} invalid={!!problem} describedBy={describedBy(id, problem)}>
        {(control) => (
          <select {...control} value={value} onChange={(e) => onChange(e.target.value)}>
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Problem id={id} problem={problem} />
    </div>
  );
}

/** A checkbox with its label beside it and an optional hint under the label. */
export function CheckBox({
  id,
  label,
  hint,
  checked,
  onChange,
}: Omit<Common, "problem"> & { checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <div className="mb-4 flex items-start gap-2">
      <input
        id={id}
        type="checkbox"
        className="mt-1"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        aria-describedby={hint ? `${id}-help` : undefined}
      />
      <div>
        <label htmlFor={id}>{label}</label>
        {hint ? (
          <p id={`${id}-help`} className="muted text-sm">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** One row of a repeated part of the form (an input field, a derived field): its fieldset, legend and Remove button. */
export function DraftRow({
  legend,
  removeLabel,
  onRemove,
  children,
  ...data
}: {
  legend: string;
  removeLabel: string;
  onRemove: (() => void) | null;
  children: ReactNode;
} & Record<`data-${string}`, number>) {
  return (
    <fieldset className="min-w-0 rounded-md border p-3" {...data}>
      <legend className="px-1 text-sm font-medium">{legend}</legend>
      {children}
      {onRemove ? (
        <ClientButton type="button" className="secondary" onClick={onRemove}>
          {removeLabel}
        </ClientButton>
      ) : null}
    </fieldset>
  );
}
