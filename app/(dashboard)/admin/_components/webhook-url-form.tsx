"use client";

import type { ReactNode } from "react";
import { InputField } from "@/components/forms/field";

type Props = {
  /** Prefix of the element ids (`<id>-url`, `<id>-help`, `<id>-error`). */
  id: string;
  formAction: (payload: FormData) => void;
  pending: boolean;
  /** The problem code of the last save, or null; "internal_error" does not mark the field invalid. */
  error: string | null;
  errorText: string | null;
  labels: { url: string; help: string; save: string; saving: string; clear: string };
  placeholder: string;
  defaultValue?: string;
  /** Offer "clear" (a URL is set). */
  canClear: boolean;
  /** What the last save said (saved / cleared, a secret shown once), between the error and the form. */
  children?: ReactNode;
};

/** The URL form of a tenant webhook (reviewer webhook, Slack): one URL field, save, and clear when one is set. */
export function WebhookUrlForm({
  id,
  formAction,
  pending,
  error,
  errorText,
  labels,
  placeholder,
  defaultValue,
  canClear,
  children,
}: Props) {
  return (
    <div className="stack">
      {error ? (
        <div className="error-box" role="alert" id={`${id}-error`}>
          {errorText}
        </div>
      ) : null}
      {children}
      <form action={formAction} noValidate aria-describedby={error ? `${id}-error` : undefined}>
        <InputField
          id={`${id}-url`}
          label={labels.url}
          hint={labels.help}
          hintId={`${id}-help`}
          invalid={!!error && error !== "internal_error"}
          name="url"
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder={placeholder}
          defaultValue={defaultValue}
        />
        <div>
          <button type="submit" name="intent" value="save" disabled={pending}>
            {pending ? labels.saving : labels.save}
          </button>{" "}
          {canClear ? (
            <button type="submit" name="intent" value="clear" className="secondary" disabled={pending}>
              {labels.clear}
            </button>
          ) : null}
        </div>
      </form>
    </div>
  );
}
