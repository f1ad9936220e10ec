import type * as React from "react";
import { NativeSelect, NativeSelectOption } from "@/components/ui/native-select";

export type SelectOption = { value: string; label: string };

/**
 * A filter's or sort's select with its label above it, as the list pages' filter bars show them; "" is a
 * filter's "any" choice (`anyOption`). It imports no class-merging helper, so the queue's first load can use it.
 */
export function LabelledSelect({
  ref,
  id,
  label,
  value,
  onChange,
  options,
}: {
  ref?: React.Ref<HTMLSelectElement>;
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: SelectOption[];
}) {
  return (
    <div className="grid gap-1.5">
      <label htmlFor={id}>{label}</label>
      <NativeSelect ref={ref} id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map((o) => (
          <NativeSelectOption key={o.value} value={o.value}>
            {o.label}
          </NativeSelectOption>
        ))}
      </NativeSelect>
    </div>
  );
}

/** A filter's options: "any" first (the value ""), then one per choice. */
export function anyOption<T extends string>(
  anyLabel: string,
  choices: readonly T[],
  label: (v: T) => string,
): SelectOption[] {
  return [{ value: "", label: anyLabel }, ...choices.map((v) => ({ value: v, label: label(v) }))];
}
