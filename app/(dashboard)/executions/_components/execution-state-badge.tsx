"use client";

import { useTranslations } from "next-intl";
import type { ExecutionState } from "@/lib/domain/execution-state";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";

const tone: Record<ExecutionState, string> = {
  sending: "bg-primary/12 text-primary",
  pending: "bg-primary/12 text-primary",
  unknown: "bg-warning text-warning-foreground",
  awaiting_payout: "bg-warning text-warning-foreground",
  succeeded: "bg-success/15 text-success-foreground",
  failed: "bg-destructive/12 text-destructive-foreground",
};

/** An execution's state in plain words (en/es), its code in `data-state`. */
export function ExecutionStateBadge({ state, className }: { state: ExecutionState; className?: string }) {
  const t = useTranslations("executions.states");
  return (
    <Badge variant="secondary" data-state={state} className={cn("align-middle", tone[state], className)}>
      {t(state)}
    </Badge>
  );
}
