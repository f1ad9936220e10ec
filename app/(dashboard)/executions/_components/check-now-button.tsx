"use client";

import { useState } from "react";
import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { isExecutionSettled } from "@/lib/domain/execution-state";
import { checkExecutionNow, executionDetailQuery, executionKeys } from "@/lib/queries/executions";
import type { CheckNowResult, ExecutionDetail } from "@/lib/schemas/execution-dto";
import { Button } from "@/components/ui/button";
import { loadToast } from "@/components/ui/toast";

const WATCH_INTERVAL_MS = 1000;
const WATCH_ROUNDS = 90;

type Finding = { kind: "succeeded" | "failed" | "stillInDoubt" | "noAnswerYet"; state: ExecutionDetail["status"] };

/**
 * Waits for the outcome of a Check now: the first reconciliation numbered after the count the check was
 * queued at (its `execution:reconcile` event carries the state it left), or the execution settling by any
 * route (webhook, an earlier reconcile). Runs outside the component, so the answer still arrives when the
 * row it was clicked in has left the in-doubt queue.
 */
async function watchOutcome(client: QueryClient, queued: CheckNowResult): Promise<Finding> {
  let state = queued.status;
  for (let round = 0; round < WATCH_ROUNDS; round++) {
    await new Promise((r) => setTimeout(r, WATCH_INTERVAL_MS));
    const d = await client.fetchQuery({ ...executionDetailQuery(queued.executionId), staleTime: 0 }).catch(() => null);
    if (!d) continue;
    state = d.status;
    const finding = d.events.find(
      (e) => e.action === "execution:reconcile" && (e.reconciliation ?? 0) > queued.reconciliations,
    );
    if (isExecutionSettled(d.status) || finding) {
      return {
        kind: d.status === "succeeded" ? "succeeded" : d.status === "failed" ? "failed" : "stillInDoubt",
        state: d.status,
      };
    }
  }
  return { kind: "noAnswerYet", state };
}

/** Runs reconciliation now (asks the provider first) and reports what it found. There is deliberately no re-send button. */
export function CheckNowButton({
  executionId,
  order,
  size = "sm",
  byShop = false,
}: {
  executionId: string;
  order: string;
  size?: "sm" | "default";
  /** The shop carries it out (another kind's execution): its outcome is told in the shop's words. */
  byShop?: boolean;
}) {
  const t = useTranslations("executions");
  const ts = useTranslations("executions.states");
  const client = useQueryClient();
  const [said, setSaid] = useState("");
  const check = useMutation({
    mutationFn: () => checkExecutionNow(executionId),
    onSuccess: async (queued) => {
      const toast = await loadToast();
      if (!queued.queued) {
        const text = t("checkOutcome.alreadySettled", { order, state: ts(queued.status) });
        setSaid(text);
        toast.info(text);
        return;
      }
      setSaid(t("checkQueued"));
      const id = toast.loading(t(byShop ? "shopCheckOutcome.waiting" : "checkOutcome.waiting", { order }));
      const found = await watchOutcome(client, queued);
      const text =
        byShop && (found.kind === "succeeded" || found.kind === "failed")
          ? t(`shopCheckOutcome.${found.kind}`, { order })
          : t(`checkOutcome.${found.kind}`, { order, state: ts(found.state) });
      setSaid(text);
      const show = found.kind === "succeeded" ? toast.success : found.kind === "failed" ? toast.error : toast.warning;
      show(text, { id, duration: 10_000 });
    },
    onError: (error) => {
      setSaid(error.message);
      void loadToast().then((toast) => toast.error(error.message));
    },
    onSettled: () => client.invalidateQueries({ queryKey: executionKeys.all }),
  });
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <Button
        type="button"
        variant="outline"
        size={size}
        aria-label={t("checkNowFor", { order })}
        disabled={check.isPending}
        onClick={() => {
          void loadToast(); // the answer is a toast: sonner loads while the check runs
          check.mutate();
        }}
      >
        {t("checkNow")}
      </Button>
      <span role="status" className="text-xs text-muted-foreground">
        {said}
      </span>
    </span>
  );
}
