import { getFormatter, getTranslations } from "next-intl/server";
import { instantFormat } from "@/lib/domain/clock";
import type { Actor } from "@/lib/server/auth/actor";
import { getChainStatus } from "@/lib/server/audit/get-chain-status";
import { Button } from "@/components/ui/button";
import { CardSection } from "@/components/page/section";
import { verifyChainNow } from "../actions";
import { VerifyOwnLog } from "./verify-own-log";

/**
 * Auditors and admins: this tenant's signed log (newest checkpoint), retention and newest purge, and
 * "verify this tenant's log now". Admins also see the newest stored check of every chain, refused agent
 * keys and "verify every chain now" — what another tenant's break may reveal is decided by the use case.
 */
export async function ChainPanel({ actor }: { actor: Actor }) {
  const t = await getTranslations("audit");
  const format = await getFormatter();
  const { ownLog, check, checkpoint, retentionDays, refusedKeys, mayVerify } = await getChainStatus(actor);
  const time = check ? format.dateTime(check.checkedAt, instantFormat) : "";
  return (
    <CardSection titleId="chain-title" title={t("chainTitle")} className="grid gap-3">
      <p className="m-0" data-testid="own-log">
        {ownLog
          ? t("ownLogSigned", {
              count: ownLog.treeSize,
              time: format.dateTime(ownLog.issuedAt, instantFormat),
              keyId: ownLog.keyId,
            })
          : t("ownLogNone")}
      </p>
      <p className="m-0 text-sm text-muted-foreground">{t("retention", { days: retentionDays })}</p>
      {checkpoint ? (
        <p className="m-0 text-sm text-muted-foreground">
          {t("checkpoint", {
            seq: format.dateTime(checkpoint.before, { dateStyle: "medium" }),
            count: checkpoint.purgedCount,
          })}
        </p>
      ) : null}
      <VerifyOwnLog />
      {mayVerify ? (
        <div className="grid gap-2 border-t pt-3">
          <p role="status" className="m-0">
            {!check
              ? t("chainNever")
              : check.ok
                ? t("chainOk", { time, events: check.events, tenants: check.tenants })
                : t("chainBroken", {
                    time,
                    tenant: check.ownBreak?.tenantSlug ?? "—",
                    seq: check.ownBreak ? check.ownBreak.seq : "—",
                    problem: check.ownBreak ? check.ownBreak.problem : "—",
                  })}
          </p>
          {refusedKeys ? (
            <p className="m-0 text-sm text-muted-foreground" data-testid="refused-keys">
              {t("refusedKeys", { own: refusedKeys.ownKeys, unknown: refusedKeys.unknownKeys })}
            </p>
          ) : null}
          <form action={verifyChainNow}>
            <Button type="submit">{t("verifyNow")}</Button>
          </form>
        </div>
      ) : null}
    </CardSection>
  );
}
