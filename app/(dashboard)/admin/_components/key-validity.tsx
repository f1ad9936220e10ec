import { useTranslations } from "next-intl";
import { DateTime } from "@/components/ui/date-time";
import type { KeyStatus } from "@/lib/domain/key-status";

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
