"use client";

import { useState, type FormEvent } from "react";
import Link from "next/link";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { Notice } from "@/components/forms/notice";
import { FormError } from "../../../_components/form-error";
import { StepUpField, stepUpValue } from "../../../_components/step-up-field";
import { useAdminRequest } from "../../../_components/use-admin-request";
import { declarationKeys, type DeclarationRow } from "../../_components/declaration";
import { checkDraft, type DraftProblem } from "./check-draft";
import { normalizePath, specOf, type Draft } from "./draft";
import { DraftBoxes } from "./draft-boxes";

/**
 * The "New action" form (POST /api/admin/actions): the draft is checked here first, each problem shown at its box;
 * the server checks it all again and its refusal shows on top (and at the box its first problem names). On success,
 * the version waits for a second admin: the form gives way to that message and a link back to the list.
 */
export function DeclarationForm({ initial }: { initial: Draft }) {
  const t = useTranslations("adminActions.form");
  const tp = useTranslations("adminActions.problems");
  const client = useQueryClient();
  const save = useAdminRequest<{ declaration: DeclarationRow }>();
  const [draft, setDraft] = useState(initial);
  // After a first submit the checks run on every change: a fixed box loses its problem as it is fixed.
  const [checked, setChecked] = useState(false);
  const [proposed, setProposed] = useState<DeclarationRow | null>(null);

  if (proposed)
    return (
      <div className="stack">
        <Notice>{t("waiting", { name: proposed.name, version: proposed.version })}</Notice>
        <p>
          <Link href="/admin/actions">{t("backToList")}</Link>
        </p>
      </div>
    );

  const problems: DraftProblem[] = checked ? checkDraft(draft) : [];
  const serverPath = save.error?.field ? normalizePath(save.error.field) : null;
  const problemAt = (path: string) => {
    const own = problems.find((p) => p.path === path);
    if (own) return tp(own.code, own.values ?? {});
    return serverPath === path ? save.error?.message : undefined;
  };

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setChecked(true);
    if (checkDraft(draft).length > 0) return;
    const r = await save.run("POST", "/api/admin/actions", {
      ...specOf(draft),
      ...stepUpValue(new FormData(e.currentTarget)),
    });
    if (!r) return;
    await client.invalidateQueries({ queryKey: declarationKeys.all });
    setProposed(r.declaration);
  }

  return (
    <form className="panel stack" aria-labelledby="actions-title" noValidate onSubmit={onSubmit}>
      {problems.length > 0 ? (
        <p className="error-box" role="alert" id="declaration-problems">
          {t("fix")}
        </p>
      ) : null}
      <FormError id="declaration-error" error={save.error} />
      <DraftBoxes draft={draft} setDraft={setDraft} problemAt={problemAt} />
      <StepUpField id="declaration-step-up-password" show={save.needsStepUp} />
      <div>
        <button type="submit" disabled={save.pending}>
          {save.pending ? t("submitting") : t("submit")}
        </button>
      </div>
    </form>
  );
}
