"use client";

import { ClientForm } from "@/components/forms/client-form";
import { useState, type ReactNode } from "react";
import { InputField } from "@/components/forms/field";
import { useAdminRequest, type AdminError } from "./use-admin-request";
import { StepUpField, stepUpValue } from "./step-up-field";

/** What the last save or clear did: "idle" before the first (and after a refusal), the route's answer after a save. */
export type WebhookFormState<T> = { status: "idle" } | { status: "saved"; answer: T } | { status: "cleared" };

type Props<T> = {
  /** Prefix of the element ids (`<id>-url`, `<id>-help`, `<id>-error`). */
  id: string;
  /** The JSON route: PUT {url, stepUpPassword?} saves, DELETE clears (like every other Admin section). */
  path: string;
  /** The input problems the form has words for (the rest read as "invalid"). */
  problems: readonly string[];
  /** The words for a problem code; "internal_error" does not mark the field invalid. */
  problemText: (problem: string) => string;
  labels: { url: string; help: string; save: string; saving: string; clear: string };
  placeholder: string;
  defaultValue?: string;
  /** Offer "clear" (a URL is set). */
  canClear: boolean;
  /** Empty the form after a save (a URL that is never shown back). */
  resetOnSave?: boolean;
  /** What the last save said (saved / cleared, a secret shown once), between the error and the form. */
  children: (state: WebhookFormState<T>) => ReactNode;
};

/** The problem a refusal shows: sign-in and permission as they are, an input problem the form knows, else its code. */
function problemOf(error: AdminError, known: readonly string[]): string {
  if (error.code === "unauthenticated" || error.code === "permission_denied") return error.code;
  if (error.code === "invalid_arguments")
    return error.problem && known.includes(error.problem) ? error.problem : "invalid";
  return "internal_error";
}

/**
 * The URL form of a tenant webhook (reviewer webhook, Slack): one URL field, save, and clear when one is set. It
 * calls the section's JSON route and says its problem; `children` say what the last save did.
 */
export function WebhookUrlForm<T>({
  id,
  path,
  problems,
  problemText,
  labels,
  placeholder,
  defaultValue,
  canClear,
  resetOnSave = false,
  children,
}: Props<T>) {
  const request = useAdminRequest<T>();
  const [state, setState] = useState<WebhookFormState<T>>({ status: "idle" });
  const error = request.error ? problemOf(request.error, problems) : null;

  async function send(intent: "save" | "clear", form: HTMLFormElement) {
    const fields = new FormData(form);
    const answer =
      intent === "save"
        ? await request.run("PUT", path, { url: String(fields.get("url") ?? ""), ...stepUpValue(fields) })
        : await request.run("DELETE", path, { ...stepUpValue(fields) });
    return answer;
  }

  return (
    <div className="stack">
      {error ? (
        <div className="error-box" role="alert" id={`${id}-error`}>
          {problemText(error)}
        </div>
      ) : null}
      {children(state)}
      <ClientForm
        noValidate
        aria-describedby={error ? `${id}-error` : undefined}
        onSubmit={async (e) => {
          e.preventDefault();
          const submitter = e.nativeEvent.submitter as HTMLButtonElement | null;
          const intent = submitter?.value === "clear" ? "clear" : "save";
          const form = e.currentTarget;
          const answer = await send(intent, form);
          if (answer && resetOnSave) form.reset();
          setState(
            !answer ? { status: "idle" } : intent === "save" ? { status: "saved", answer } : { status: "cleared" },
          );
        }}
      >
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
        <StepUpField id={`${id}-step-up`} show={request.needsStepUp} />
        <div>
          <button type="submit" name="intent" value="save" disabled={request.pending}>
            {request.pending ? labels.saving : labels.save}
          </button>{" "}
          {canClear ? (
            <button type="submit" name="intent" value="clear" className="secondary" disabled={request.pending}>
              {labels.clear}
            </button>
          ) : null}
        </div>
      </ClientForm>
    </div>
  );
}
