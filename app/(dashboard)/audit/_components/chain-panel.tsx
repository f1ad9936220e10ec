import { getFormatter, getTranslations } from "next-intl/server";
import type { Actor } from "@/lib/server/auth/actor";
import { getChainStatus } from "@/lib/server/audit/get-chain-status";
import { verifyChainNow } from "../actions";

/** Admins: the newest stored log verification, this tenant's newest retention purge, and "verify now". */
export async function ChainPanel({ actor }: { actor: Actor }) {
  const t = await getTranslations("audit");
  const format = await getFormatter();
  // The use case decides what another tenant's break may reveal (that it exists, nothing more).
  const { check, checkpoint, retentionDays, refusedKeys } = await getChainStatus(actor);
  const time = check ? format.dateTime(check.checkedAt, { dateStyle: "medium", timeStyle: "medium" }) : "";
  return (
    <section aria-labelledby="chain-title" className="panel stack">
      <h2 id="chain-title">{t("chainTitle")}</h2>
      <p role="status">
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
      <p className="muted">{t("retention", { days: retentionDays })}</p>
      {checkpoint ? (
        <p className="muted">{t("checkpoint", { seq: format.dateTime(checkpoint.before, { dateStyle: "medium" }), count: checkpoint.purgedCount })}</p>
      ) : null}
      <p className="muted" data-testid="refused-keys">
        {t("refusedKeys", { own: refusedKeys.ownKeys, unknown: refusedKeys.unknownKeys })}
      </p>
      <form action={verifyChainNow}>
        <button type="submit">{t("verifyNow")}</button>
      </form>
    </section>
  );
}
