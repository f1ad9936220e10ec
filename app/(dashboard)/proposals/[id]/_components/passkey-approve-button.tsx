"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { browserSupportsWebAuthn, startAuthentication } from "@simplewebauthn/browser";
import { api, ApiError } from "@/lib/queries/proposals";
import type { StepUpInput } from "@/lib/schemas/proposals";
import { ClientButton } from "@/components/ui/client-button";

/**
 * "Approve with passkey": asks the server for assertion options whose challenge is derived from this
 * proposal's id and the hash on screen, lets the device sign it, then hands the answer to the approve
 * request (`stepUp: { method: "passkey", response }`), whose success and errors the decision panel shows.
 */
export function PasskeyApproveButton(props: {
  proposalId: string;
  hash: string;
  busy: boolean;
  onApprove: (body: { hash: string; stepUp: StepUpInput }) => void;
  onError: (message: string) => void;
}) {
  const t = useTranslations("passkeys");
  const [pending, setPending] = useState(false);

  async function approveWithPasskey() {
    if (!browserSupportsWebAuthn()) {
      props.onError(t("unsupported"));
      return;
    }
    setPending(true);
    try {
      const optionsJSON = await api(
        `/api/proposals/${props.proposalId}/approve/passkey-options`,
        () => import("@/lib/schemas/passkeys").then((m) => m.authenticationOptionsDto),
        {
          method: "POST",
          body: JSON.stringify({ hash: props.hash }),
        },
      );
      const response = await startAuthentication({ optionsJSON });
      props.onApprove({
        hash: props.hash,
        stepUp: { method: "passkey", response: response as Extract<StepUpInput, { method: "passkey" }>["response"] },
      });
    } catch (e) {
      props.onError(e instanceof ApiError ? e.message : t("cancelled"));
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="field">
      <ClientButton
        type="button"
        onClick={approveWithPasskey}
        disabled={pending || props.busy}
        aria-describedby="passkey-approve-hint"
      >
        {pending ? t("waiting") : t("approveWith")}
      </ClientButton>
      <p className="muted" id="passkey-approve-hint">
        {t("approveHint")}
      </p>
    </div>
  );
}
