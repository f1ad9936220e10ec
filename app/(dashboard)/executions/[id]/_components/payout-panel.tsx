"use client";

import { ClientForm } from "@/components/forms/client-form";
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { confirmPayout, executionKeys, recordPayout } from "@/lib/queries/executions";
import type { ExecutionDetail } from "@/lib/schemas/execution-dto";
import { Button } from "@/components/ui/button";
import { DateTime } from "@/components/ui/date-time";
import { InputField } from "@/components/forms/field";
import { CardSection } from "@/components/page/section";
import { Money } from "@/components/domain/money";

type Payout = NonNullable<ExecutionDetail["payout"]>;

/**
 * A manual payout (a payment no provider holds): what to pay to whom, the transfer's reference once recorded, who
 * recorded and confirmed it. Ops record the reference after paying; at or above four-eyes a second person
 * confirms (the one who recorded it cannot: the server refuses it too).
 */
export function PayoutPanel({ d, canPayout }: { d: ExecutionDetail & { payout: Payout }; canPayout: boolean }) {
  const t = useTranslations("executions.payout");
  const client = useQueryClient();
  const [reference, setReference] = useState("");
  const [said, setSaid] = useState("");
  const done = {
    onSuccess: (r: { status: "awaiting_confirmation" | "succeeded" }) => setSaid(t(`result.${r.status}`)),
    onError: (e: Error) => setSaid(e.message),
    onSettled: () => client.invalidateQueries({ queryKey: executionKeys.all }),
  };
  const record = useMutation({ mutationFn: () => recordPayout(d.id, reference), ...done });
  const confirm = useMutation({ mutationFn: () => confirmPayout(d.id), ...done });
  const p = d.payout;
  const waiting = d.status === "awaiting_payout";

  return (
    <CardSection titleId="payout-title" title={t("title")} data-payout={d.id}>
      <p className="mt-1 mb-3 text-sm">
        {t("what", { holder: d.proposal.recipientHolder ?? "—", recipient: d.proposal.recipientDisplay ?? "—" })}{" "}
        {/* A manual payout is always a refund's: its amount is there. */}
        {d.proposal.amountMinor !== null && d.proposal.currency !== null ? (
          <strong>
            <Money minor={d.proposal.amountMinor} currency={d.proposal.currency} />
          </strong>
        ) : null}
      </p>
      {p.reference ? (
        <dl className="m-0 grid gap-1 text-sm">
          <div>
            <dt className="inline font-medium">{t("reference")}: </dt>
            <dd className="inline font-mono">{p.reference}</dd>
          </div>
          <div>
            <dt className="inline font-medium">{t("recordedBy")}: </dt>
            <dd className="inline">
              {p.recordedByName ?? "—"}
              {p.recordedAt ? (
                <>
                  {" · "}
                  <DateTime value={p.recordedAt} />
                </>
              ) : null}
            </dd>
          </div>
          {p.confirmedByName || p.needsSecondPerson ? (
            <div>
              <dt className="inline font-medium">{t("confirmedBy")}: </dt>
              <dd className="inline">
                {p.confirmedByName ?? t("notYet")}
                {p.confirmedAt ? (
                  <>
                    {" · "}
                    <DateTime value={p.confirmedAt} />
                  </>
                ) : null}
              </dd>
            </div>
          ) : null}
        </dl>
      ) : null}

      {waiting && canPayout && !p.reference ? (
        <ClientForm
          className="mt-3 grid max-w-md gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            record.mutate();
          }}
        >
          <InputField
            id="payout-reference"
            label={t("referenceLabel")}
            hint={p.needsSecondPerson ? t("hintFourEyes") : t("hint")}
            value={reference}
            onChange={(e) => setReference(e.target.value)}
            maxLength={100}
            required
            autoComplete="off"
          />
          <Button type="submit" disabled={record.isPending || reference.trim().length < 3} className="w-fit">
            {t("record")}
          </Button>
        </ClientForm>
      ) : null}

      {waiting && canPayout && p.reference ? (
        <div className="mt-3 grid gap-2">
          {p.recordedByViewer ? (
            <p className="m-0 text-sm text-muted-foreground">{t("needsAnother")}</p>
          ) : (
            <Button type="button" className="w-fit" disabled={confirm.isPending} onClick={() => confirm.mutate()}>
              {t("confirm")}
            </Button>
          )}
        </div>
      ) : null}
      <p role="status" className="m-0 mt-2 text-sm">
        {said}
      </p>
    </CardSection>
  );
}
