"use client";

import { ClientForm } from "@/components/forms/client-form";
import { useState } from "react";
import { useTranslations } from "next-intl";
import { InputField, requiredText } from "@/components/forms/field";
import { Section } from "@/components/page/section";
import { Notice } from "@/components/forms/notice";
import { useAdminRequest } from "./use-admin-request";
import { StepUpField, stepUpValue } from "./step-up-field";
import { FormError } from "./form-error";
import { WitnessTable, type WitnessView } from "./witness-table";

type Answer = { status: "applied" | "awaiting_second_admin" };

/**
 * The tenant's witnesses of its audit log (docs/audit.md "Witnesses"): who cosigns, what each last cosigned
 * or why it refused, the quorum, and the policy file an auditor pins. Adding a witness or raising the quorum
 * applies at once; removing a witness or lowering the quorum waits for a second admin (shown under
 * "Changes waiting for a second admin").
 */
export function WitnessesSection({
  witnesses,
  quorum,
  origin,
  policy,
}: {
  witnesses: WitnessView[];
  quorum: number;
  origin: string;
  policy: string;
}) {
  const t = useTranslations("adminWitnesses");
  const add = useAdminRequest<Answer>();
  const remove = useAdminRequest<Answer>();
  const setQuorum = useAdminRequest<Answer>();
  const [done, setDone] = useState<string | null>(null);
  const said = (r: Answer | null) => r && setDone(r.status === "applied" ? t("applied") : t("waiting"));

  return (
    <Section titleId="witnesses-title" title={t("title")} className="stack">
      <p className="muted">{t("intro", { origin })}</p>
      <Notice>{done}</Notice>
      <FormError id="witness-remove-error" error={remove.error} />
      <WitnessTable
        witnesses={witnesses}
        removing={remove.pending}
        onRemove={async (w) => said(await remove.run("DELETE", `/api/admin/witnesses/${w.id}`))}
      />

      <ClientForm
        className="panel"
        aria-labelledby="witness-quorum-title"
        onSubmit={async (e) =>
          said(
            await setQuorum.submit(e, "PUT", "/api/admin/witness-policy", (f) => ({
              quorum: Number(f.get("quorum")),
              ...stepUpValue(f),
            })),
          )
        }
      >
        <h3 id="witness-quorum-title">{t("quorumTitle")}</h3>
        <FormError id="witness-quorum-error" error={setQuorum.error} />
        <InputField
          id="witness-quorum"
          label={t("quorum", { count: witnesses.length })}
          name="quorum"
          type="number"
          min={0}
          max={witnesses.length}
          defaultValue={quorum}
          required
        />
        <StepUpField id="witness-quorum-step-up" show={setQuorum.needsStepUp} />
        <button type="submit" disabled={setQuorum.pending}>
          {t("setQuorum")}
        </button>
      </ClientForm>

      <ClientForm
        className="panel"
        aria-labelledby="witness-add-title"
        onSubmit={async (e) => {
          const fields = (f: FormData) => ({
            name: f.get("name"),
            vkey: f.get("vkey"),
            url: f.get("url"),
            ...stepUpValue(f),
          });
          if (await add.submit(e, "POST", "/api/admin/witnesses", fields, true)) setDone(t("added"));
        }}
      >
        <h3 id="witness-add-title">{t("addTitle")}</h3>
        <p className="muted">{t("addHelp")}</p>
        <FormError id="witness-add-error" error={add.error} />
        <InputField {...requiredText} id="witness-name" label={t("name")} name="name" maxLength={200} />
        <InputField
          {...requiredText}
          id="witness-vkey"
          label={t("vkey")}
          name="vkey"
          maxLength={400}
          className="mono"
        />
        <InputField {...requiredText} id="witness-url" label={t("url")} name="url" type="url" maxLength={2048} />
        <StepUpField id="witness-add-step-up" show={add.needsStepUp} />
        <button type="submit" disabled={add.pending}>
          {t("add")}
        </button>
      </ClientForm>

      <div className="panel">
        <h3 id="witness-policy-title">{t("policyTitle")}</h3>
        <p className="muted">{t("policyHelp")}</p>
        <pre aria-labelledby="witness-policy-title" className="mono text-xs whitespace-pre-wrap break-all">
          {policy}
        </pre>
        <a href={`data:text/plain;charset=utf-8,${encodeURIComponent(policy)}`} download="witness-policy.txt">
          {t("download")}
        </a>
      </div>
    </Section>
  );
}
