"use client";

import { ClientForm } from "@/components/forms/client-form";
import Link from "next/link";
import { useRef, useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { api, proposalDto, proposalKeys } from "@/lib/queries/proposals";
import type { ProposalDetail } from "@/lib/schemas/proposal-dto";
import { parseMajorToMinor } from "@/lib/domain/format-money";
import { InputField } from "@/components/forms/field";
import { Notice } from "@/components/forms/notice";
import { DialogActions } from "@/components/ui/dialog-actions";
import { Button } from "@/components/ui/button";

/** Re-prepare (expired / invalidated) and edit = supersede (lower the amount). */
export function SupersedePanel({ proposal: p }: { proposal: ProposalDetail }) {
  const t = useTranslations("proposal");
  const queryClient = useQueryClient();
  const router = useRouter();
  const editRef = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState<string | null>(null);
  const onSettled = () => queryClient.invalidateQueries({ queryKey: proposalKeys.all });
  const onSuccess = (r: { proposalId: string }) => {
    editRef.current?.close();
    setError(null);
    setMade(r.proposalId);
  };
  const reprepare = useMutation({
    mutationFn: () =>
      api(`/api/proposals/${p.id}/reprepare`, proposalDto("reprepareResultDto"), { method: "POST", body: "{}" }),
    onSuccess,
    onError: (e) => setError(e.message),
    onSettled,
  });
  const edit = useMutation({
    mutationFn: (amountMinor: number) =>
      api(`/api/proposals/${p.id}/edit`, proposalDto("editResultDto"), {
        method: "POST",
        body: JSON.stringify({ hash: p.hash, amountMinor }),
      }),
    // The old proposal is closed now: the reviewer goes on with the new one (it shows before → after).
    onSuccess: (r) => {
      onSuccess(r);
      router.push(`/proposals/${r.proposalId}`);
    },
    onError: (e) => setError(e.message),
    onSettled,
  });

  if (!p.viewer.canReprepare && !p.viewer.canEdit && !made) return null;

  function onEdit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const minor = parseMajorToMinor(String(new FormData(event.currentTarget).get("amount") ?? ""), p.currency);
    if (minor === null || minor <= 0 || minor >= p.amountMinor) {
      setError(t("badAmount"));
      return;
    }
    edit.mutate(minor);
  }

  return (
    <div className="stack">
      {made ? (
        <Notice>
          {t("reprepared")} <Link href={`/proposals/${made}`}>{t("openNew")}</Link>
        </Notice>
      ) : null}
      {/* eslint-disable-next-line react-hooks/refs -- reads whether the native <details> is open; setError re-renders after it changes */}
      {error && !editRef.current?.open ? (
        <p className="error-box" role="alert">
          {error}
        </p>
      ) : null}
      <div className="row-actions">
        {p.viewer.canReprepare && !made ? (
          <Button type="button" variant="outline" disabled={reprepare.isPending} onClick={() => reprepare.mutate()}>
            {t("reprepare")}
          </Button>
        ) : null}
        {p.viewer.canEdit && !made ? (
          <Button
            type="button"
            variant="outline"
            onClick={() => {
              setError(null);
              editRef.current?.showModal();
            }}
          >
            {t("edit")}
          </Button>
        ) : null}
      </div>
      <dialog ref={editRef} aria-labelledby="edit-title">
        <ClientForm onSubmit={onEdit}>
          <h2 id="edit-title">{t("editTitle")}</h2>
          <p>{t("editHelp")}</p>
          <InputField
            id="edit-amount"
            label={t("newAmount", { currency: p.currency })}
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            required
          />
          <DialogActions
            dialogRef={editRef}
            error={error}
            pending={edit.isPending}
            submitLabel={t("confirmEdit")}
            pendingLabel={t("working")}
            cancelLabel={t("cancel")}
          />
        </ClientForm>
      </dialog>
    </div>
  );
}
