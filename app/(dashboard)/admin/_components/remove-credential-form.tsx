"use client";
// "Remove" for a credential an admin stored (the payment provider connection, the action endpoint): asks to
// confirm, sends DELETE with the step-up field when the server asks for it, and tells the caller when it is gone.
import { ClientForm } from "@/components/forms/client-form";
import { FormError } from "./form-error";
import { StepUpField, stepUpValue } from "./step-up-field";
import { useAdminRequest } from "./use-admin-request";

export function RemoveCredentialForm(props: {
  /** Prefix of the element ids (`<idPrefix>-remove-title`, `-remove-error`, `-remove-step-up`). */
  idPrefix: string;
  path: string;
  title: string;
  confirm: string;
  button: string;
  onRemoved: () => void;
}) {
  const remove = useAdminRequest<{ removed: boolean }>();
  const { idPrefix } = props;
  return (
    <ClientForm
      className="panel"
      aria-labelledby={`${idPrefix}-remove-title`}
      onSubmit={async (e) => {
        e.preventDefault();
        if (!window.confirm(props.confirm)) return;
        const r = await remove.run("DELETE", props.path, stepUpValue(new FormData(e.currentTarget)));
        if (r) props.onRemoved();
      }}
    >
      <h3 id={`${idPrefix}-remove-title`}>{props.title}</h3>
      <FormError id={`${idPrefix}-remove-error`} error={remove.error} />
      <StepUpField id={`${idPrefix}-remove-step-up`} show={remove.needsStepUp} />
      <button type="submit" className="secondary" disabled={remove.pending}>
        {props.button}
      </button>
    </ClientForm>
  );
}
