"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNow, useTranslations } from "next-intl";
import { api, ApiError, proposalDto, proposalKeys } from "@/lib/queries/proposals";
import type { Claim } from "@/lib/schemas/proposal-dto";
import { Button } from "@/components/ui/button";

/** Whole minutes left on a claim (0 in its last minute). */
export function claimMinutesLeft(claim: Claim, now: Date): number {
  return Math.max(0, Math.floor((new Date(claim.until).getTime() - now.getTime()) / 60_000));
}

/**
 * Take / renew / release the advisory claim. A lost race (`claimed_by_other`) is not a failure for the
 * reviewer: the page shows who holds it and the decision buttons stay usable.
 */
export function useClaim(proposalId: string) {
  const queryClient = useQueryClient();
  const invalidate = () => queryClient.invalidateQueries({ queryKey: proposalKeys.all });
  const take = useMutation({
    mutationFn: () =>
      api(`/api/proposals/${proposalId}/claim`, proposalDto("claimResultDto"), { method: "POST", body: "{}" }),
    onSettled: invalidate,
  });
  const release = useMutation({
    mutationFn: () => api(`/api/proposals/${proposalId}/claim`, proposalDto("releaseResultDto"), { method: "DELETE" }),
    onSettled: invalidate,
  });
  const lostTo =
    take.error instanceof ApiError && take.error.code === "claimed_by_other"
      ? ((take.error.details.claimedBy as { name?: string } | undefined)?.name ?? "—")
      : null;
  return { take, release, lostTo };
}

/** "Ana is reviewing this — 3 min left" (or "You are reviewing this"), with the buttons to take or give it back. */
export function ClaimNotice({
  proposalId,
  claim,
  canClaim,
}: {
  proposalId: string;
  claim: Claim | null;
  canClaim: boolean;
}) {
  const t = useTranslations("proposal.claim");
  const now = useNow({ updateInterval: 15_000 });
  const { take, release } = useClaim(proposalId);
  const live = claim && new Date(claim.until).getTime() > now.getTime() ? claim : null;
  if (!live && !canClaim) return null;
  return (
    <div className="mt-3 rounded-md border bg-card px-3 py-2 text-sm" data-testid="claim-notice">
      {live && !live.mine ? (
        <p className="m-0">
          <strong>{t("byOther", { name: live.by, minutes: claimMinutesLeft(live, now) })}</strong> {t("advisory")}
        </p>
      ) : null}
      {live?.mine ? <p className="m-0">{t("mine", { minutes: claimMinutesLeft(live, now) })}</p> : null}
      {canClaim ? (
        <div className="mt-2 flex flex-wrap gap-2">
          {!live || live.mine ? (
            <Button type="button" size="sm" variant="secondary" disabled={take.isPending} onClick={() => take.mutate()}>
              {t("take")}
            </Button>
          ) : null}
          {live?.mine ? (
            <Button
              type="button"
              size="sm"
              variant="ghost"
              disabled={release.isPending}
              onClick={() => release.mutate()}
            >
              {t("release")}
            </Button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
