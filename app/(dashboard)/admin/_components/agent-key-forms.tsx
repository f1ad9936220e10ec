"use client";

import { ClientForm } from "@/components/forms/client-form";
import { useState } from "react";
import { useTranslations } from "next-intl";
import { CheckboxGroup } from "@/components/forms/checkbox-group";
import { Field, InputField, requiredText } from "@/components/forms/field";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { Section } from "@/components/page/section";
import { useAdminRequest } from "./use-admin-request";
import { StepUpField, stepUpValue } from "./step-up-field";
import { IssueKeyForm } from "./issue-key-form";
import { FormError, ShownOnce } from "./form-error";

/** Issue an agent key on a channel; the key is shown once. */
export function IssueAgentKeyForm({ channels }: { channels: { slug: string; name: string }[] }) {
  const t = useTranslations("adminManage");
  return (
    <IssueKeyForm
      idPrefix="key"
      title={t("issueKeyTitle")}
      keyName={t("agentKey")}
      endpoint="/api/admin/agent-keys"
      fields={(form) => ({ channel: form.get("channel") })}
    >
      <Field id="key-channel" label={t("channel")}>
        {(control) => (
          <select {...control} name="channel" required>
            {channels.map((c) => (
              <option key={c.slug} value={c.slug}>
                {c.name} ({c.slug})
              </option>
            ))}
          </select>
        )}
      </Field>
    </IssueKeyForm>
  );
}

/** Revokes an agent key, or (kind "integration") an integration key of the Orders API, after a confirmation. */
export function RevokeKeyButton({
  id,
  label,
  kind = "agent",
}: {
  id: string;
  label: string;
  kind?: "agent" | "integration";
}) {
  const t = useTranslations("adminManage");
  const { run, pending, error } = useAdminRequest();
  const integration = kind === "integration";
  return (
    <>
      <ConfirmButton
        label={t("revoke")}
        ariaLabel={t("revokeNamed", { label })}
        disabled={pending}
        title={t(integration ? "revokeIntegrationTitle" : "revokeTitle")}
        description={t(integration ? "revokeIntegrationConfirm" : "revokeConfirm", { label })}
        confirmLabel={t("revokeConfirmButton")}
        onConfirm={() => run("DELETE", `/api/admin/${integration ? "integration-keys" : "agent-keys"}/${id}`)}
      />
      <FormError id={`revoke-${id}-error`} error={error} />
    </>
  );
}

/** Create a channel; its end-user token secret is shown once. */
export function CreateChannelForm({ tools }: { tools: string[] }) {
  const t = useTranslations("adminManage");
  const { submit, pending, error, needsStepUp } = useAdminRequest<{ secret: string }>();
  const [secret, setSecret] = useState<string | null>(null);
  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    const result = await submit(event, "POST", "/api/admin/channels", (form) => ({
      slug: form.get("slug"),
      name: form.get("name"),
      allowedTools: form.getAll("allowedTools"),
      ...stepUpValue(form),
    }));
    if (result) setSecret(result.secret);
  }
  return (
    <Section titleId="create-channel-title" title={t("createChannelTitle")} level={3} className="panel">
      {secret ? <ShownOnce label={t("channelSecret")} value={secret} note={t("channelSecretNote")} /> : null}
      <FormError id="create-channel-error" error={error} />
      <ClientForm onSubmit={onSubmit}>
        <InputField
          {...requiredText}
          id="channel-slug"
          label={t("channelSlug")}
          name="slug"
          pattern="[a-z][a-z0-9_]{1,39}"
        />
        <InputField {...requiredText} id="channel-name" label={t("name")} name="name" maxLength={80} />
        <CheckboxGroup
          legend={t("tools")}
          name="allowedTools"
          choices={tools}
          label={(tool) => tool}
          labelClassName="mono"
        />
        <StepUpField id="channel-step-up" show={needsStepUp} />
        <button type="submit" disabled={pending}>
          {pending ? t("working") : t("createChannel")}
        </button>
      </ClientForm>
    </Section>
  );
}

/** Rotate a channel's secret, keeping the old one valid for an overlap window. */
export function RotateSecretForm({ id, slug }: { id: string; slug: string }) {
  const t = useTranslations("adminManage");
  const { submit, pending, error, needsStepUp } = useAdminRequest<{
    secret: string;
    previousSecretValidUntil: string | null;
  }>();
  const [secret, setSecret] = useState<string | null>(null);
  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    const result = await submit(event, "POST", `/api/admin/channels/${id}/rotate-secret`, (form) => ({
      overlapMinutes: Number(form.get("overlapMinutes")),
      ...stepUpValue(form),
    }));
    if (result) setSecret(result.secret);
  }
  return (
    <ClientForm onSubmit={onSubmit} aria-label={t("rotateNamed", { slug })}>
      {secret ? <ShownOnce label={t("channelSecret")} value={secret} note={t("channelSecretNote")} /> : null}
      <FormError id={`rotate-${id}-error`} error={error} />
      <InputField
        id={`overlap-${id}`}
        label={t("overlapMinutes")}
        name="overlapMinutes"
        type="number"
        min={0}
        max={10080}
        defaultValue={60}
        required
      />
      <StepUpField id={`rotate-${id}-step-up`} show={needsStepUp} />
      <button type="submit" className="secondary" disabled={pending}>
        {t("rotateSecret")}
      </button>
    </ClientForm>
  );
}
