import { useTranslations } from "next-intl";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";

// On a secondary Badge, as its caller: these utilities win over the badge's defaults (components/ui/badge.css).
const tone: Record<string, string> = {
  pending_approval: "bg-primary/12 text-primary",
  approved: "bg-success/15 text-success-foreground",
  executing: "bg-primary/12 text-primary",
  succeeded: "bg-success/15 text-success-foreground",
  rejected: "bg-destructive/12 text-destructive-foreground",
  expired: "bg-muted text-muted-foreground",
  invalidated: "bg-muted text-muted-foreground",
  failed: "bg-destructive/12 text-destructive-foreground",
  needs_reconciliation: "bg-warning text-warning-foreground",
};

export function StatusBadge({ status }: { status: string }) {
  const t = useTranslations("status");
  return (
    <Badge variant="secondary" data-status={status} className={cn("align-middle", tone[status])}>
      {t(status as "pending_approval")}
    </Badge>
  );
}
