"use client";

import { lazy, Suspense, useState } from "react";
import { useTranslations } from "next-intl";
import type { ProposalPage } from "@/lib/schemas/proposal-dto";
import { Button } from "@/components/ui/button";
import { ClaimNotice } from "./claim-notice";
import { DecisionStatus } from "./decision-notes";
import { useDecision } from "./use-decision";

// The dialogs (Radix dialog, and the passkey client in the approve one) load on the first open, not with the
// page (the page's JavaScript budget, bench:ui). React.lazy, as the shell's palette: next/dynamic's loader
// would cost more than it saves.
const loadApprove = () => import("./approve-dialog");
const loadReject = () => import("./reject-dialog");
const ApproveDialog = lazy(() => loadApprove().then((m) => ({ default: m.ApproveDialog })));
const RejectDialog = lazy(() => loadReject().then((m) => ({ default: m.RejectDialog })));
/** On intent (pointer over, or focus on, a decision button) the dialogs' code starts loading before the click. */
const preload = () => void Promise.all([loadApprove(), loadReject()]).catch(() => {});

/**
 * Approve / reject for reviewers. The request carries the hash that was on screen, the server recomputes it
 * and refuses any difference (use-decision.ts); the dialogs restate exactly what will happen.
 */
export function DecisionPanel({ proposal: p }: { proposal: ProposalPage }) {
  const t = useTranslations("proposal");
  const d = useDecision(p);
  // Mounted from the first open on and kept, so a dialog closes (and hands focus back) as Radix does.
  const [used, setUsed] = useState(false);
  if (d.open && !used) setUsed(true);

  // A button that opens a decision's dialog; its key is the shortcut use-decision.ts binds to it.
  const open = (kind: "approve" | "reject", key: string, variant?: "outline") => (
    <Button
      type="button"
      variant={variant}
      onClick={() => d.openDialog(kind)}
      onPointerEnter={preload}
      onFocus={preload}
      aria-keyshortcuts={key}
    >
      {t(kind)}
    </Button>
  );

  if (!p.viewer.canDecide && !p.viewer.canReject) {
    return (
      <>
        <DecisionStatus d={d} />
        {p.viewer.ownRequest ? <p className="muted">{t("ownRequest")}</p> : null}
      </>
    );
  }

  return (
    <>
      <DecisionStatus d={d} />
      {p.viewer.alreadyApproved ? <p className="muted">{t("alreadyApproved")}</p> : null}
      {p.viewer.ownRequest ? <p className="muted">{t("ownRequest")}</p> : null}
      {d.decided ? null : <ClaimNotice proposalId={p.id} claim={p.claim} canClaim={d.canReject} />}
      {d.canDecide || d.canReject ? (
        // On a phone the actions stay on screen (a bar stuck to the bottom while the facts scroll past).
        <div
          role="group"
          aria-label={t("actions")}
          data-testid="decision-actions"
          className="mt-4 flex flex-wrap gap-3 max-md:sticky max-md:bottom-0 max-md:z-10 max-md:-mx-4 max-md:border-t max-md:bg-card/95 max-md:px-4 max-md:py-3 max-md:backdrop-blur max-md:[&>button]:flex-1"
        >
          {d.canDecide ? open("approve", "a") : null}
          {d.canReject ? open("reject", "r", "outline") : null}
        </div>
      ) : null}
      {used ? (
        <Suspense fallback={null}>
          <ApproveDialog p={p} d={d} />
          <RejectDialog d={d} />
        </Suspense>
      ) : null}
    </>
  );
}
