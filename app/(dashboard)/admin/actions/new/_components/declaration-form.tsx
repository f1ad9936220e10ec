"use client";

import { ClientForm } from "@/components/forms/client-form";
import { useState, type FormEvent } from "react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { Notice } from "@/components/forms/notice";
import { StepUpField, stepUpValue } from "../../../_components/step-up-field";
import type { DeclarationRow } from "../../_components/declaration";
import { checkDraft, type DraftProblem } from "./check-draft";
import { boxOf, boxPaths } from "./box-paths";
import { specOf, type Draft } from "./draft";
import { DraftBoxes } from "./draft-boxes";
import { usePropose } from "./use-propose";

/**
 * The "New action" form (POST /api/admin/actions): the draft is checked here first, each problem shown at its box;
 * the server checks it all again — its refusal shows on top, and each problem it lists at its box when the form has
 * one (else on top too). On success the version waits for a second admin: the form gives way to that message and a
 * link back to the list.
 */
export function DeclarationForm({ initial }: { initial: Draft }) {
  const t = useTranslations("adminActions.form");
  const tp = useTranslations("adminActions.problems");
  const save = usePropose();
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
  const boxes = boxPaths(draft);
  const server = save.problems.map((p) => ({ ...p, box: boxOf(p.path, boxes) }));
  const problemAt = (path: string) => {
    const own = problems.find((p) => p.path === path);
    if (own) return tp(own.code, own.values ?? {});
    const found = server.filter((p) => p.box === path).map((p) => p.message);
    return found.length ? found.join(" ") : undefined;
  };
  const onTop = server.filter((p) => p.box === null);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setChecked(true);
    if (checkDraft(draft).length > 0) return;
    const r = await save.propose({ ...specOf(draft), ...stepUpValue(new FormData(e.currentTarget)) });
    if (r) setProposed(r);
  }

  return (
    <ClientForm className="panel stack" aria-labelledby="actions-title" noValidate onSubmit={onSubmit}>
      {problems.length > 0 ? (
        <p className="error-box" role="alert" id="declaration-problems">
          {t("fix")}
        </p>
      ) : null}
      {save.error ? (
        <div className="error-box" role="alert" id="declaration-error">
          <p className="m-0">{save.error.message}</p>
          {onTop.length > 0 ? (
            <ul className="m-0 mt-2 list-disc pl-5">
              {onTop.map((p) => (
                <li key={`${p.path}:${p.message}`}>
                  <code className="mono">{p.path}</code> {p.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      <DraftBoxes draft={draft} setDraft={setDraft} problemAt={problemAt} />
      <StepUpField id="declaration-step-up-password" show={save.needsStepUp} />
      <div>
        <button type="submit" disabled={save.pending}>
          {save.pending ? t("submitting") : t("submit")}
        </button>
      </div>
    </ClientForm>
  );
}
