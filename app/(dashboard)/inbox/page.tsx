import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { pageActor } from "@/lib/server/auth/page";
import { getInboxForRequest } from "@/lib/server/inbox/get-inbox";
import { formatMinor } from "@/lib/domain/format-money";
import { RefreshOnChange } from "@/components/realtime/refresh-on-change";
import { DateTime } from "@/components/ui/date-time";
import { InboxGroup } from "./_components/inbox-group";
import { titleMetadata } from "@/components/page/title-metadata";

export const dynamic = "force-dynamic";

export const generateMetadata = titleMetadata("inbox");

const ALL_KINDS = ["proposal", "execution", "approval", "admin"] as const;

/** "Waiting for you" (docs/design.md "Inbox"): what only this person can move on, by role. Re-rendered on every pushed change. */
export default async function InboxPage() {
  const actor = await pageActor("inbox:read");
  const t = await getTranslations("inbox");
  const tChanges = await getTranslations("adminChanges");
  const tExec = await getTranslations("executions");
  const tKind = await getTranslations("kinds");
  const locale = await getLocale();
  const inbox = await getInboxForRequest(actor);
  // A refund's amount; another kind's name (its page shows the hashed action).
  const actionOf = (i: { kind: string; amountMinor: number | null; currency: string | null }) =>
    i.amountMinor !== null && i.currency !== null
      ? formatMinor(i.amountMinor, i.currency, locale)
      : tKind.has(`${i.kind}.title`)
        ? tKind(`${i.kind}.title`)
        : i.kind;
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
        <InboxGroup
          titleId="inbox-second"
          title={t("secondApprovals.title")}
          help={t("secondApprovals.help")}
          empty={t("secondApprovals.empty")}
          items={inbox.secondApprovals.map((p) => ({
            key: p.proposalId,
            href: `/proposals/${p.proposalId}`,
            data: { "data-proposal-id": p.proposalId },
            title: t("secondApprovals.item", {
              order: p.orderNumber,
              amount: actionOf(p),
            }),
            detail: (
              <>
                {t("secondApprovals.progress", {
                  approvals: p.approvals,
                  required: p.requiredApprovals,
                  names: p.approvedBy.join(", "),
                })}{" "}
                · {t("expires")} <DateTime value={p.expiresAt} />
              </>
            ),
          }))}
        >
          {inbox.pending ? (
            <p className="m-0 text-sm">
              <Link href="/queue">
                {t("pendingInQueue", { count: inbox.pending.count, capped: inbox.pending.capped ? "yes" : "no" })}
              </Link>
            </p>
          ) : null}
        </InboxGroup>
      ) : null}

      {inbox.adminChanges !== null ? (
        <InboxGroup
          titleId="inbox-admin"
          title={t("adminChanges.title")}
          help={t("adminChanges.help")}
          empty={t("adminChanges.empty")}
          items={inbox.adminChanges.map((c) => ({
            key: c.id,
            href: "/admin",
            data: { "data-change-id": c.id },
            title:
              c.kind === "policy_change"
                ? t("adminChanges.policy", { version: c.version ?? 0 })
                : c.what.map((w) => tChanges(`kinds.${w}` as "kinds.grant_admin")).join(", "),
            detail: (
              <>
                {t("adminChanges.proposedBy", { name: c.proposedBy ?? t("adminChanges.operator") })}{" "}
                <DateTime value={c.proposedAt} />
                {c.expiresAt ? (
                  <>
                    {" "}
                    · {t("expires")} <DateTime value={c.expiresAt} />
                  </>
                ) : null}
              </>
            ),
          }))}
        />
      ) : null}

      {inbox.inDoubt !== null ? (
        <InboxGroup
          titleId="inbox-doubt"
          title={t("inDoubt.title")}
          help={t("inDoubt.help")}
          empty={t("inDoubt.empty")}
          items={inbox.inDoubt.map((e) => ({
            key: e.executionId,
            href: `/executions/${e.executionId}`,
            data: { "data-execution-id": e.executionId },
            title: t("inDoubt.item", { order: e.orderNumber, amount: actionOf(e) }),
            detail: (
              <>
                {tExec(`whys.${e.why}`)} · {t("inDoubt.since")} <DateTime value={e.since} />
              </>
            ),
          }))}
        />
      ) : null}
    </section>
  );
}
