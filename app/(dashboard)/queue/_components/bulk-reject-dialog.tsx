"use client";

import { useRef, useState, useTransition, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { api, ApiError } from "@/lib/queries/api";
import type { BulkRejectResult } from "@/lib/schemas/proposal-dto";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import { DecisionDialog, DecisionForm } from "@/components/forms/decision-dialog";
import { DialogHeading } from "@/components/ui/dialog";
import { RejectFields } from "@/components/reviewer/reject-fields";

export type BulkItem = { proposalId: string; hash: string; orderNumber: string };

/**
 * One message for the customer (and an optional internal note) for every selected proposal; the server
 * rejects each as its own decision over the hash sent and answers per proposal. The answer is shown line by
 * line (one may have changed meanwhile and be refused while the others are rejected); closing refreshes the queue.
 */
export function BulkRejectDialog({
  open,
  items,
  onClose,
}: {
  open: boolean;
  items: BulkItem[];
  onClose: (decided: boolean) => void;
}) {
  const t = useTranslations("bulkReject");
  const tp = useTranslations("proposal");
  const router = useRouter();
  const [, startTransition] = useTransition();
  const [reason, setReason] = useState("");
  const [internalNote, setInternalNote] = useState("");
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [results, setResults] = useState<{ item: BulkItem; result: BulkRejectResult["results"][number] }[] | null>(
    null,
  );
  const reasonInput = useRef<HTMLTextAreaElement>(null);

  function close() {
    const decided = results !== null;
    setResults(null);
    setError(null);
    if (decided) {
      setReason("");
      setInternalNote("");
      startTransition(() => router.refresh());
    }
    onClose(decided);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSending(true);
    setError(null);
    try {
      const answer = await api(
        "/api/proposals/bulk-reject",
        () => import("@/lib/schemas/proposal-dto").then((m) => m.bulkRejectResultDto),
        {
          method: "POST",
          body: JSON.stringify({
            proposals: items.map(({ proposalId, hash }) => ({ proposalId, hash })),
            customerMessage: reason,
            ...(internalNote.trim() ? { internalNote } : {}),
          }),
        },
      );
      const byId = new Map(items.map((i) => [i.proposalId, i]));
      setResults(answer.results.map((result) => ({ item: byId.get(result.proposalId)!, result })));
    } catch (e) {
      setError(e instanceof ApiError ? e.message : t("failed"));
    } finally {
      setSending(false);
    }
  }

  const rejected = results?.filter((r) => r.result.outcome === "rejected").length ?? 0;
  return (
    <DecisionDialog
      open={open}
      onOpenChange={(o) => (o ? undefined : close())}
      closeLabel={tp("cancel")}
      focus={() => reasonInput.current}
    >
      {results ? (
        <div className="grid gap-4">
          <DialogHeading
            title={t("doneTitle")}
            description={t("summary", { rejected, refused: results.length - rejected })}
            descriptionProps={{ role: "status" }}
          />
          <ul className="m-0 grid max-h-72 list-none gap-2 overflow-y-auto p-0" aria-label={t("resultsLabel")}>
            {results.map(({ item, result }) => (
              <li
                key={result.proposalId}
                data-result-for={result.proposalId}
                data-outcome={result.outcome}
                className="rounded-md border p-2 text-sm"
              >
                <strong>{t("order", { order: item?.orderNumber ?? result.proposalId })}</strong>:{" "}
                {result.outcome === "rejected"
                  ? t("rejected")
                  : t("refused", { message: result.message ?? result.code ?? "" })}
              </li>
            ))}
          </ul>
          <DialogFooter>
            <Button type="button" onClick={close}>
              {t("close")}
            </Button>
          </DialogFooter>
        </div>
      ) : (
        <DecisionForm
          onSubmit={onSubmit}
          heading={{ title: t("title", { count: items.length }), description: t("help") }}
          cancel={{ label: tp("cancel"), onClick: close }}
          confirm={{
            label: sending ? tp("working") : t("confirm", { count: items.length }),
            disabled: sending || items.length === 0,
            variant: "destructive",
          }}
        >
          <p className="m-0 text-sm">{t("orders", { orders: items.map((i) => i.orderNumber).join(", ") })}</p>
          <RejectFields
            idPrefix="bulk-reject"
            reason={reason}
            onReason={setReason}
            internalNote={internalNote}
            onInternalNote={setInternalNote}
            reasonRef={reasonInput}
          />
          {error ? (
            <p role="alert" className="m-0 text-sm text-destructive">
              {error}
            </p>
          ) : null}
        </DecisionForm>
      )}
    </DecisionDialog>
  );
}
