"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { useAdminRequest } from "./use-admin-request";
import { FormError } from "./form-error";

/** Queues a `webhook.test` delivery (POST …/test → 202 {id}); the history below shows it after the refresh. */
export function SendTestButton({ path, label }: { path: string; label: string }) {
  const t = useTranslations("webhookDeliveries");
  const { run, pending, error } = useAdminRequest<{ id: string }>();
  const [queued, setQueued] = useState(false);
  return (
    <div>
      <button
        type="button"
        className="secondary"
        disabled={pending}
        onClick={async () => {
          setQueued(false);
          if (await run("POST", path)) setQueued(true);
        }}
      >
        {pending ? t("working") : label}
      </button>
      {queued ? <p role="status">{t("queued")}</p> : null}
      <FormError id={`test-${path.replace(/[^a-z0-9]+/gi, "-")}-error`} error={error} />
    </div>
  );
}

/** Sends a delivered or failed delivery again with the same webhook id and body (POST …/resend → 202). */
export function ResendDeliveryButton({ id, label }: { id: string; label: string }) {
  const t = useTranslations("webhookDeliveries");
  const { run, pending, error } = useAdminRequest<{ id: string; status: "pending" }>();
  return (
    <>
      <button
        type="button"
        className="secondary"
        disabled={pending}
        aria-label={label}
        onClick={() => void run("POST", `/api/admin/webhook-deliveries/${id}/resend`)}
      >
        {pending ? t("working") : t("resend")}
      </button>
      <FormError id={`resend-${id}-error`} error={error} />
    </>
  );
}
