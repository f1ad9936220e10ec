import { getFormatter, getTranslations } from "next-intl/server";
import { db } from "@/lib/server/db/client";
import { lastChainCheck } from "@/lib/server/audit/verify-all-chains";
import { verifyChainNow } from "../actions";

/** Admins: the newest stored log verification, this tenant's newest retention purge, and "verify now". */
export async function ChainPanel({ tenantId }: { tenantId: string }) {
  const t = await getTranslations("audit");
  const format = await getFormatter();
  const [check, checkpoint, tenant] = await Promise.all([
    lastChainCheck(),
    db().auditPurge.findFirst({ where: { logId: tenantId }, orderBy: { before: "desc" } }),
    db().tenant.findUniqueOrThrow({ where: { id: tenantId }, select: { retentionDays: true } }),
  ]);
  // The stored check covers every tenant; another tenant's break is reported without naming it.
  const ownBreak = !!check && !check.ok && check.tenantId === tenantId;
  const brokenTenant = ownBreak ? await db().tenant.findUnique({ where: { id: tenantId }, select: { slug: true } }) : null;
  const time = check ? format.dateTime(check.checkedAt, { dateStyle: "medium", timeStyle: "medium" }) : "";
  return (
    <section aria-labelledby="chain-title" className="panel stack">
      <h2 id="chain-title">{t("chainTitle")}</h2>
      <p role="status">
        {!check
          ? t("chainNever")
          : check.ok
            ? t("chainOk", { time, events: check.events, tenants: check.tenants })
            : t("chainBroken", { time, tenant: brokenTenant?.slug ?? "—", seq: ownBreak ? (check.brokenAtSeq ?? 0) : "—", problem: ownBreak ? (check.problem ?? "") : "—" })}
      </p>
      <p className="muted">{t("retention", { days: tenant.retentionDays })}</p>
      {checkpoint ? <p className="muted">{t("checkpoint", { seq: format.dateTime(checkpoint.before, { dateStyle: "medium" }), count: checkpoint.purgedCount })}</p> : null}
      <form action={verifyChainNow}>
        <button type="submit">{t("verifyNow")}</button>
      </form>
    </section>
  );
}
