"use client";

import { ClientForm } from "@/components/forms/client-form";
import { useState } from "react";
import { useTranslations } from "next-intl";
import { InputField } from "@/components/forms/field";
import { CopyButton } from "@/components/ui/copy-button";
import { DateTime } from "@/components/ui/date-time";
import type { ConnectionTest, ProviderConnectionView } from "@/lib/schemas/provider-connection";
import { Section } from "@/components/page/section";
import { Notice } from "@/components/forms/notice";
import { FormError } from "./form-error";
import { StepUpField, stepUpValue } from "./step-up-field";
import { RemoveCredentialForm } from "./remove-credential-form";
import { useAdminRequest } from "./use-admin-request";
import { ClientButton } from "@/components/ui/client-button";

/**
 * The tenant's Stripe connection: whose key is in use (a hint, never the key), a form to store a restricted key
 * and webhook secret (step-up; sealed on the server), "Test connection" (one real call to the provider), and the
 * webhook URL and events to subscribe in Stripe's dashboard, each with a copy button.
 */
export function ProviderConnectionForm({ view }: { view: ProviderConnectionView }) {
  const t = useTranslations("adminProvider");
  const save = useAdminRequest<{ apiKeyHint: string }>();
  const test = useAdminRequest<ConnectionTest>();
  const [tested, setTested] = useState<ConnectionTest | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const events = view.events.join("\n");

  return (
    <Section titleId="provider-title" title={t("title")} className="stack">
      <p className="muted">{t("intro")}</p>
      <dl className="facts">
        <dt>{t("inUse")}</dt>
        <dd data-testid="provider-source">
          {view.source === "tenant" ? (
            <>
              {t("own")} <code className="mono break-all">{view.apiKeyHint}</code>
              {view.updatedAt ? (
                <>
                  {" "}
                  ({t("updated")} <DateTime value={view.updatedAt} />)
                </>
              ) : null}
            </>
          ) : (
            t("default")
          )}
        </dd>
        <dt>{t("webhookUrl")}</dt>
        <dd className="flex min-w-0 flex-wrap items-center gap-1">
          {/* A long URL breaks anywhere: on a phone it would otherwise widen the page. */}
          <code className="mono min-w-0 break-all" data-testid="provider-webhook-url">
            {view.webhookUrl}
          </code>
          <CopyButton value={view.webhookUrl} label={t("webhookUrl")} />
        </dd>
        <dt>{t("events")}</dt>
        <dd className="flex min-w-0 flex-wrap items-center gap-1">
          <code className="mono min-w-0 break-words">{view.events.join(", ")}</code>
          <CopyButton value={events} label={t("events")} />
        </dd>
      </dl>

      <Notice>{done}</Notice>

      <div>
        <ClientButton
          type="button"
          className="secondary"
          disabled={test.pending}
          onClick={async () => {
            setTested(null);
            setTested(await test.run("POST", "/api/admin/provider-connection/test"));
          }}
        >
          {test.pending ? t("testing") : t("test")}
        </ClientButton>
        <FormError id="provider-test-error" error={test.error} />
        {tested ? (
          <p role="status" data-testid="provider-test-result" className={tested.ok ? "notice" : "error-box"}>
            {tested.ok
              ? t("testOk", { source: t(`source.${tested.source}`) })
              : t(`testFailed.${tested.problem}`, { message: tested.message })}
          </p>
        ) : null}
      </div>

      {view.canStore ? (
        <ClientForm
          className="panel"
          aria-labelledby="provider-save-title"
          onSubmit={async (e) => {
            const r = await save.submit(
              e,
              "PUT",
              "/api/admin/provider-connection",
              (f) => ({ apiKey: f.get("apiKey"), webhookSecret: f.get("webhookSecret"), ...stepUpValue(f) }),
              true,
            );
            if (r) {
              setTested(null);
              setDone(t("saved", { hint: r.apiKeyHint }));
            }
          }}
        >
          <h3 id="provider-save-title">{view.source === "tenant" ? t("replaceTitle") : t("saveTitle")}</h3>
          <p className="muted">{t("saveHelp")}</p>
          <FormError id="provider-save-error" error={save.error} />
          <SecretField id="provider-api-key" name="apiKey" label={t("apiKey")} placeholder="rk_live_…" />
          <SecretField
            id="provider-webhook-secret"
            name="webhookSecret"
            label={t("webhookSecret")}
            placeholder="whsec_…"
          />
          <StepUpField id="provider-step-up" show={save.needsStepUp} />
          <button type="submit" disabled={save.pending}>
            {t("save")}
          </button>
        </ClientForm>
      ) : (
        <p className="muted">{t("noSecretsKey")}</p>
      )}

      {view.source === "tenant" ? (
        <RemoveCredentialForm
          idPrefix="provider"
          path="/api/admin/provider-connection"
          title={t("removeTitle")}
          confirm={t("removeConfirm")}
          button={t("remove")}
          onRemoved={() => {
            setTested(null);
            setDone(t("removed"));
          }}
        />
      ) : null}
    </Section>
  );
}

/** A secret the admin pastes from Stripe's dashboard: masked, never autofilled, in the code font. */
function SecretField(props: { id: string; name: string; label: string; placeholder: string }) {
  return <InputField {...props} type="password" required autoComplete="off" className="mono" />;
}
