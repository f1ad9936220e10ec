import type { Metadata } from "next";
import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { pageActor } from "@/lib/server/auth/page";
import { getInboxForRequest } from "@/lib/server/inbox/get-inbox";
import { formatMinor } from "@/lib/domain/format-money";
import { RefreshOnChange } from "@/components/realtime/refresh-on-change";
import { DateTime } from "@/components/ui/date-time";
import { Section } from "@/components/page/section";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("inbox"))("title") };
}

const ALL_KINDS = ["proposal", "execution", "approval", "admin"] as const;

/** "Waiting for you" (docs/design.md "Inbox"): what only this person can move on, by role. Re-rendered on every pushed change. */
export default async function InboxPage() {
  const actor = await pageActor("inbox:read");
  const t = await getTranslations("inbox");
  const tChanges = await getTranslations("adminChanges");
  const tExec = await getTranslations("executions");
  const locale = await getLocale();
  const inbox = await getInboxForRequest(actor);
  const money = (minor: number, currency: string) => formatMinor(minor, currency, locale);
  const card = "rounded-xl border bg-card p-4";
  return (
    <section aria-labelledby="inbox-title" className="grid gap-6">
      <RefreshOnChange kinds={ALL_KINDS} />
      <div>
        <h1 id="inbox-title">{t("title")}</h1>
        <p className="lead">{t("description")}</p>
        <p className="text-sm text-muted-foreground" data-testid="inbox-total">
          {inbox.count === 0 ? t("nothing") : t("total", { count: inbox.count })}
        </p>
      </div>

      {inbox.secondApprovals !== null ? (
        <Section titleId="inbox-second" title={t("secondApprovals.title")} className="grid gap-3">
          <p className="m-0 text-sm text-muted-foreground">{t("secondApprovals.help")}</p>
          {inbox.secondApprovals.length === 0 ? (
            <p className={card}>{t("secondApprovals.empty")}</p>
          ) : (
            <ul className="m-0 grid list-none gap-3 p-0" aria-labelledby="inbox-second">
              {inbox.secondApprovals.map((p) => (
                <li key={p.proposalId} className={card} data-proposal-id={p.proposalId}>
                  <Link href={`/proposals/${p.proposalId}`} className="font-semibold">
                    {t("secondApprovals.item", { order: p.orderNumber, amount: money(p.amountMinor, p.currency) })}
                  </Link>
                  <p className="m-0 mt-1 text-sm text-muted-foreground">
                    {t("secondApprovals.progress", {
                      approvals: p.approvals,
                      required: p.requiredApprovals,
                      names: p.approvedBy.join(", "),
                    })}{" "}
                    · {t("expires")} <DateTime value={p.expiresAt} />
                  </p>
                </li>
              ))}
            </ul>
          )}
          {inbox.pending ? (
            <p className="m-0 text-sm">
              <Link href="/queue">
                {t("pendingInQueue", { count: inbox.pending.count, capped: inbox.pending.capped ? "yes" : "no" })}
              </Link>
            </p>
          ) : null}
        </Section>
      ) : null}

      {inbox.adminChanges !== null ? (
        <Section titleId="inbox-admin" title={t("adminChanges.title")} className="grid gap-3">
          <p className="m-0 text-sm text-muted-foreground">{t("adminChanges.help")}</p>
          {inbox.adminChanges.length === 0 ? (
            <p className={card}>{t("adminChanges.empty")}</p>
          ) : (
            <ul className="m-0 grid list-none gap-3 p-0" aria-labelledby="inbox-admin">
              {inbox.adminChanges.map((c) => (
                <li key={c.id} className={card} data-change-id={c.id}>
                  <Link href="/admin" className="font-semibold">
                    {c.kind === "policy_change"
                      ? t("adminChanges.policy", { version: c.version ?? 0 })
                      : c.what.map((w) => tChanges(`kinds.${w}` as "kinds.grant_admin")).join(", ")}
                  </Link>
                  <p className="m-0 mt-1 text-sm text-muted-foreground">
                    {t("adminChanges.proposedBy", { name: c.proposedBy ?? t("adminChanges.operator") })}{" "}
                    <DateTime value={c.proposedAt} />
                    {c.expiresAt ? (
                      <>
                        {" "}
                        · {t("expires")} <DateTime value={c.expiresAt} />
                      </>
                    ) : null}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </Section>
      ) : null}

      {inbox.inDoubt !== null ? (
        <Section titleId="inbox-doubt" title={t("inDoubt.title")} className="grid gap-3">
          <p className="m-0 text-sm text-muted-foreground">{t("inDoubt.help")}</p>
          {inbox.inDoubt.length === 0 ? (
            <p className={card}>{t("inDoubt.empty")}</p>
          ) : (
            <ul className="m-0 grid list-none gap-3 p-0" aria-labelledby="inbox-doubt">
              {inbox.inDoubt.map((e) => (
                <li key={e.executionId} className={card} data-execution-id={e.executionId}>
                  <Link href={`/executions/${e.executionId}`} className="font-semibold">
                    {t("inDoubt.item", { order: e.orderNumber, amount: money(e.amountMinor, e.currency) })}
                  </Link>
                  <p className="m-0 mt-1 text-sm text-muted-foreground">
                    {tExec(`whys.${e.why}`)} · {t("inDoubt.since")} <DateTime value={e.since} />
                  </p>
                </li>
              ))}
            </ul>
          )}
        </Section>
      ) : null}
    </section>
  );
}
