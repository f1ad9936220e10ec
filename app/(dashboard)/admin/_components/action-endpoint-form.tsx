"use client";

import { ClientForm } from "@/components/forms/client-form";
import { useState } from "react";
import { useTranslations } from "next-intl";
import { InputField } from "@/components/forms/field";
import { CopyButton } from "@/components/ui/copy-button";
import { DateTime } from "@/components/ui/date-time";
import type { ActionEndpointTest, ActionEndpointView, SetActionEndpointResult } from "@/lib/schemas/action-endpoint";
import { Section } from "@/components/page/section";
import { Notice } from "@/components/forms/notice";
import { FormError } from "./form-error";
import { StepUpField, stepUpValue } from "./step-up-field";
import { RemoveCredentialForm } from "./remove-credential-form";
import { useAdminRequest } from "./use-admin-request";
import { ClientButton } from "@/components/ui/client-button";

/**
 * The tenant's action endpoint: the URL the shop's actions are sent to and the hint of its signing secret (never
 * the secret), "Test" (a signed read of a random key: no effect at the shop), a form to set the URL (the first save
 * and a rotation generate a new secret, shown here once with a copy button), and removal. Step-up as the server asks.
 */
export function ActionEndpointForm({ view }: { view: ActionEndpointView }) {
  const t = useTranslations("adminActionEndpoint");
  const save = useAdminRequest<SetActionEndpointResult>();
  const test = useAdminRequest<ActionEndpointTest>();
  const [tested, setTested] = useState<ActionEndpointTest | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  return (
    <Section titleId="action-endpoint-title" title={t("title")} className="stack">
      <p className="muted">{t("intro")}</p>
      <dl className="facts">
        <dt>{t("url")}</dt>
        <dd data-testid="action-endpoint-url">
          {view.url ? <code className="mono break-all">{view.url}</code> : t("notSet")}
        </dd>
        {view.secretHint ? (
          <>
            <dt>{t("secret")}</dt>
            <dd data-testid="action-endpoint-secret-hint">
              <code className="mono">{view.secretHint}</code>
              {view.updatedAt ? (
                <>
                  {" "}
                  ({t("updated")} <DateTime value={view.updatedAt} />)
                </>
              ) : null}
            </dd>
          </>
        ) : null}
        {view.previousSecretUntil ? (
          <>
            <dt>{t("previousSecret")}</dt>
            <dd data-testid="action-endpoint-previous-secret">
              {t("previousSecretUntil")} <DateTime value={view.previousSecretUntil} />
            </dd>
          </>
        ) : null}
      </dl>

      <Notice>{done}</Notice>

      {secret ? (
        <div className="panel" role="status" aria-labelledby="action-endpoint-secret-title">
          <p id="action-endpoint-secret-title">
            <strong>{t("secretTitle")}</strong>
          </p>
          <p>{t("secretOnce")}</p>
          <div className="flex min-w-0 flex-wrap items-center gap-1">
            <code className="mono min-w-0 break-all" data-testid="action-endpoint-secret">
              {secret}
            </code>
            <CopyButton value={secret} label={t("secret")} />
          </div>
        </div>
      ) : null}

      {view.configured ? (
        <div>
          <ClientButton
            type="button"
            className="secondary"
            disabled={test.pending}
            onClick={async () => {
              setTested(null);
              setTested(await test.run("POST", "/api/admin/action-endpoint/test"));
            }}
          >
            {test.pending ? t("testing") : t("test")}
          </ClientButton>
          <FormError id="action-endpoint-test-error" error={test.error} />
          {tested ? (
            <p role="status" data-testid="action-endpoint-test-result" className={tested.ok ? "notice" : "error-box"}>
              {tested.ok
                ? t("testOk", { ms: tested.latencyMs })
                : t(`testFailed.${tested.problem}`, { message: tested.message })}
            </p>
          ) : null}
        </div>
      ) : null}

      {view.canStore ? (
        <ClientForm
          className="panel"
          aria-labelledby="action-endpoint-save-title"
          onSubmit={async (e) => {
            const r = await save.submit(e, "PUT", "/api/admin/action-endpoint", (f) => ({
              url: f.get("url"),
              ...(f.get("rotateSecret") === "on"
                ? { rotateSecret: true, overlapMinutes: Number(f.get("overlapMinutes")) }
                : {}),
              ...stepUpValue(f),
            }));
            if (r) {
              setTested(null);
              setSecret(r.secret);
              setDone(r.secret ? null : t("saved"));
            }
          }}
        >
          <h3 id="action-endpoint-save-title">{view.configured ? t("changeTitle") : t("saveTitle")}</h3>
          <FormError id="action-endpoint-save-error" error={save.error} />
          <InputField
            id="action-endpoint-url-input"
            name="url"
            type="url"
            label={t("url")}
            hint={t("urlHelp")}
            placeholder="https://shop.example.com/actions"
            defaultValue={view.url ?? ""}
            required
            className="mono"
            invalid={save.error?.field === "url"}
            describedBy={save.error ? ["action-endpoint-save-error"] : []}
          />
          {view.configured ? (
            <div className="flex items-start gap-2">
              <input
                id="action-endpoint-rotate"
                name="rotateSecret"
                type="checkbox"
                className="mt-1"
                aria-describedby="action-endpoint-rotate-help"
              />
              <div>
                <label htmlFor="action-endpoint-rotate">{t("rotate")}</label>
                <p id="action-endpoint-rotate-help" className="muted text-sm">
                  {t("rotateHelp")}
                </p>
              </div>
            </div>
          ) : null}
          {view.configured ? (
            <InputField
              id="action-endpoint-overlap"
              name="overlapMinutes"
              type="number"
              label={t("overlapMinutes")}
              hint={t("overlapHelp")}
              min={0}
              max={10080}
              defaultValue={1440}
              required
            />
          ) : null}
          <StepUpField id="action-endpoint-step-up" show={save.needsStepUp} />
          <button type="submit" disabled={save.pending}>
            {t("save")}
          </button>
        </ClientForm>
      ) : (
        <p className="muted">{t("noSecretsKey")}</p>
      )}

      {view.configured ? (
        <RemoveCredentialForm
          idPrefix="action-endpoint"
          path="/api/admin/action-endpoint"
          title={t("removeTitle")}
          confirm={t("removeConfirm")}
          button={t("remove")}
          onRemoved={() => {
            setTested(null);
            setSecret(null);
            setDone(t("removed"));
          }}
        />
      ) : null}
    </Section>
  );
}
