"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { useAdminRequest } from "./use-admin-request";
import { FormError } from "./form-error";
import { ClientButton } from "@/components/ui/client-button";

/** Queues a test delivery (POST …/test → 202 {id}, with `body` if given); the history below shows it after the refresh. */
export function SendTestButton({ path, label, body }: { path: string; label: string; body?: Record<string, unknown> }) {
  const t = useTranslations("webhookDeliveries");
  const { run, pending, error } = useAdminRequest<{ id: string }>();
  const [queued, setQueued] = useState(false);
  return (
    <div>
      <ClientButton
        type="button"
        className="secondary"
        disabled={pending}
        onClick={async () => {
          setQueued(false);
          if (await run("POST", path, body)) setQueued(true);
        }}
      >
        {pending ? t("working") : label}
      </ClientButton>
      {queued ? <p role="status">{t("queued")}</p> : null}
      <FormError id={`test-${(path + JSON.stringify(body ?? "")).replace(/[^a-z0-9]+/gi, "-")}-error`} error={error} />
    </div>
  );
}

/** Sends a delivery again (POST `path` → 202): a webhook with the same id and body, or a failed Slack message or e-mail. */
export function ResendDeliveryButton({ path, id, label }: { path: string; id: string; label: string }) {
  const t = useTranslations("webhookDeliveries");
  const { run, pending, error } = useAdminRequest<{ id: string; status: "pending" }>();
  return (
    <>
      <ClientButton
        type="button"
        className="secondary"
        disabled={pending}
        aria-label={label}
        onClick={() => void run("POST", path)}
      >
        {pending ? t("working") : t("resend")}
      </ClientButton>
      <FormError id={`resend-${id}-error`} error={error} />
    </>
  );
}
