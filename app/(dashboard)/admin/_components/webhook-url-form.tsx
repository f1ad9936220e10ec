"use client";

import { useActionState, type ReactNode } from "react";
import { InputField } from "@/components/forms/field";

/** What a webhook form's server action answers: its status ("idle" before the first save), a problem code on "error". */
type WebhookFormState = { status: string; problem?: string };

type Props<S extends WebhookFormState> = {
  /** Prefix of the element ids (`<id>-url`, `<id>-help`, `<id>-error`). */
  id: string;
  /** The server action that saves (intent "save") or clears (intent "clear") the URL. */
  action: (state: Awaited<S>, form: FormData) => Promise<S>;
  /** The words for a problem code; "internal_error" does not mark the field invalid. */
  problemText: (problem: string) => string;
  labels: { url: string; help: string; save: string; saving: string; clear: string };
  placeholder: string;
  defaultValue?: string;
  /** Offer "clear" (a URL is set). */
  canClear: boolean;
  /** What the last save said (saved / cleared, a secret shown once), between the error and the form. */
  children: (state: Awaited<S>) => ReactNode;
};

/**
 * The URL form of a tenant webhook (reviewer webhook, Slack): one URL field, save, and clear when one is set. It runs
 * the server action and says its problem; `children` say what the last save did.
 */
export function WebhookUrlForm<S extends WebhookFormState>({
  id,
  action,
  problemText,
  labels,
  placeholder,
  defaultValue,
  canClear,
  children,
}: Props<S>) {
  // Every webhook form's state has an "idle" status, before the first save.
  const [state, formAction, pending] = useActionState(action, { status: "idle" } as Awaited<S>);
  const error = state.status === "error" ? (state.problem ?? null) : null;
  return (
    <div className="stack">
      {error ? (
        <div className="error-box" role="alert" id={`${id}-error`}>
          {problemText(error)}
        </div>
      ) : null}
      {children(state)}
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
