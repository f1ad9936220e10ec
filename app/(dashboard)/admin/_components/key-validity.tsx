import { useTranslations } from "next-intl";
import { getTranslations } from "next-intl/server";
import type { Column } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import type { KeyStatus } from "@/lib/domain/key-status";
import { RevokeKeyButton } from "./agent-key-forms";

/** An issued key's status, with its expiry while it is active; and its last use (agent and integration keys). */
export function KeyStatusText({ status, expiresAt }: { status: KeyStatus; expiresAt: Date | null }) {
  const tm = useTranslations("adminManage");
  return (
    <>
      {tm(`keyStatus.${status}`)}
      {status === "active" && expiresAt ? (
        <>
          {" "}
          ({tm("expires")} <DateTime value={expiresAt} />)
        </>
      ) : null}
    </>
  );
}

export function LastUsedText({ at }: { at: Date | null }) {
  const t = useTranslations("admin");
  return at ? <DateTime value={at} /> : <>{t("never")}</>;
}

type IssuedKey = {
  id: string;
  label: string;
  keyPrefix: string;
  status: KeyStatus;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
};

/**
 * The columns agent keys and integration keys share — label, prefix, status, last use, revoke — around each
 * kind's own: `what` after the prefix (channel and tools, or scopes) and `counts` after the status.
 */
export async function keyColumns<K extends IssuedKey>(
  kind: "agent" | "integration",
  what: Column<K>[],
  counts: Column<K>[],
): Promise<Column<K>[]> {
  const t = await getTranslations("admin");
  const tm = await getTranslations("adminManage");
  return [
    { id: "label", header: tm("label"), cell: (k) => k.label },
    { id: "prefix", header: t("keyPrefix"), cell: (k) => `${k.keyPrefix}…`, className: "mono" },
    ...what,
    { id: "status", header: t("status"), cell: (k) => <KeyStatusText status={k.status} expiresAt={k.expiresAt} /> },
    ...counts,
    { id: "lastUsed", header: t("lastUsed"), cell: (k) => <LastUsedText at={k.lastUsedAt} /> },
    {
      id: "actions",
      header: tm("actions"),
      cell: (k) => (k.status === "revoked" ? null : <RevokeKeyButton id={k.id} label={k.label} kind={kind} />),
    },
  ];
}
