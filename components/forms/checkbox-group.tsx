import type { ReactNode } from "react";

/**
 * A set of checkboxes sent under one name (roles, tools, scopes): a fieldset whose legend names the set, an
 * optional note under it, one labelled box per choice. `checked` says which start ticked; `disabled` freezes
 * the whole set (a person's own roles).
 */
export function CheckboxGroup<T extends string>({
  legend,
  name,
  choices,
  label,
  checked,
  note,
  disabled,
  labelClassName,
}: {
  legend: ReactNode;
  name: string;
  choices: readonly T[];
  label: (choice: T) => ReactNode;
  checked?: (choice: T) => boolean;
  note?: ReactNode;
  disabled?: boolean;
  labelClassName?: string;
}) {
  return (
    <fieldset className="field" disabled={disabled}>
      <legend>{legend}</legend>
      {note ? <p className="muted">{note}</p> : null}
      {choices.map((c) => (
        <label key={c} className={labelClassName}>
          <input type="checkbox" name={name} value={c} defaultChecked={checked?.(c)} /> {label(c)}
        </label>
      ))}
    </fieldset>
  );
}
