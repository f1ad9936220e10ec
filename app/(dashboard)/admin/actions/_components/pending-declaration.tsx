"use client";

import { ClientForm } from "@/components/forms/client-form";
import { useTranslations } from "next-intl";
import { FormError } from "../../_components/form-error";
import { StepUpField, stepUpValue } from "../../_components/step-up-field";
import type { DeclarationRow } from "./declaration";
import { DeclarationSpecView } from "./declaration-spec";
import { useDeclarationDecision } from "./use-declaration-decision";
import { ClientButton } from "@/components/ui/client-button";

/**
 * A version waiting for a second admin, with everything it declares: another admin approves it (step-up when the
 * server asks) or rejects it; its proposer may only cancel it. Who may approve is the server's call (`approvalRefusal`
 * says why not, as for the other changes that need a second admin).
 */
export function PendingDeclaration({ row, onDone }: { row: DeclarationRow; onDone: (message: string) => void }) {
  const t = useTranslations("adminActions");
  const tc = useTranslations("adminChanges");
  const decide = useDeclarationDecision();
  const titleId = `declaration-${row.id}-title`;
  const reject = async () => {
    if (await decide.send(row.id, row.mine ? "cancel" : "reject")) onDone(t("done.rejected"));
  };
  return (
    <article id={`declaration-${row.id}`} aria-labelledby={titleId} className="panel stack" data-declaration={row.id}>
      <h3 id={titleId} className="mt-0">
        {t("pendingHeading", { name: row.name, version: row.version })}
      </h3>
      <p className="muted m-0">{t("proposedByAt", row.proposedBy)}</p>
      <DeclarationSpecView spec={row.spec} />
      <FormError id={`declaration-error-${row.id}`} error={decide.error} />
      {row.mine ? (
        <div className="row-actions items-center">
          <p className="muted m-0">{t("mine")}</p>
          <ClientButton type="button" className="secondary" disabled={decide.pending} onClick={reject}>
            {t("cancel")}
          </ClientButton>
        </div>
      ) : (
        <div className="row-actions items-end">
          {row.approvalRefusal ? (
            <p className="muted m-0">
              {tc.has(`refusals.${row.approvalRefusal}`) ? tc(`refusals.${row.approvalRefusal}`) : row.approvalRefusal}
            </p>
          ) : (
            <ClientForm
              className="flex flex-wrap items-end gap-3"
              onSubmit={async (e) => {
                e.preventDefault();
                const body = stepUpValue(new FormData(e.currentTarget));
                if (await decide.send(row.id, "approve", body)) onDone(t("done.active"));
              }}
            >
              <StepUpField id={`declaration-step-up-${row.id}`} show={decide.needsStepUp} />
              <button type="submit" disabled={decide.pending}>
                {t("approve")}
              </button>
            </ClientForm>
          )}
          <ClientButton type="button" className="secondary" disabled={decide.pending} onClick={reject}>
            {t("reject")}
          </ClientButton>
        </div>
      )}
    </article>
  );
}
