import { useTranslations } from "next-intl";

export function StatusBadge({ status }: { status: string }) {
  const t = useTranslations("status");
  const danger = ["rejected", "expired", "invalidated", "failed", "needs_reconciliation"].includes(status);
  return <span className={danger ? "badge danger" : "badge"}>{t(status as "pending_approval")}</span>;
}
