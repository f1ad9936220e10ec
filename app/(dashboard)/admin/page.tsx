import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { pageActor } from "@/lib/server/auth/page";
import { getAdminOverview } from "@/lib/server/admin/get-admin-overview";
import { DateTime } from "@/components/ui/date-time";
import { Money } from "@/components/domain/money";
import { ReviewWebhookSection } from "./_components/review-webhook-section";

export const dynamic = "force-dynamic";

export default async function AdminPage() {
  const actor = await pageActor("admin:manage");
  const { tenant, staff, channels, agentKeys } = await getAdminOverview(actor);
  const t = await getTranslations("admin");
  const tr = await getTranslations("roles");
  return (
    <div className="stack">
      <h1>{t("title")}</h1>

      <section aria-labelledby="policy-title" className="panel">
        <h2 id="policy-title">{t("policy")}</h2>
        <dl className="facts">
          <dt>{t("currency")}</dt>
          <dd>{tenant.currency}</dd>
          <dt>{t("locale")}</dt>
          <dd>{tenant.locale}</dd>
          <dt>{t("approvalExpiry")}</dt>
          <dd>{t("minutes", { count: tenant.approvalExpiryMinutes })}</dd>
          <dt>{t("stepUp")}</dt>
          <dd>{t("minutes", { count: tenant.stepUpMinutes })}</dd>
          <dt>{t("dualThreshold")}</dt>
          <dd>{tenant.dualApprovalThresholdMinor === null ? t("none") : <Money minor={tenant.dualApprovalThresholdMinor} currency={tenant.currency} />}</dd>
          <dt>{t("retention")}</dt>
          <dd>{t("days", { count: tenant.retentionDays })}</dd>
        </dl>
      </section>

      <ReviewWebhookSection actor={actor} />

      <section aria-labelledby="staff-title">
        <h2 id="staff-title">{t("staff")}</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">{t("name")}</th>
              <th scope="col">{t("email")}</th>
              <th scope="col">{t("roles")}</th>
              <th scope="col">{t("status")}</th>
              <th scope="col">{t("lastLogin")}</th>
            </tr>
          </thead>
          <tbody>
            {staff.map((s) => (
              <tr key={s.id}>
                <td>
                  <Link href={`/admin/staff/${s.id}`}>{s.name}</Link>
                </td>
                <td>{s.email}</td>
                <td>{s.roles.map((r) => <span key={r} className="badge">{tr(r)}</span>)}</td>
                <td>
                  {s.disabled ? t("disabled") : t("active")}
                  {s.lockedUntil && s.lockedUntil > new Date() ? <span className="badge danger">{t("locked", { time: s.lockedUntil.toISOString() })}</span> : null}
                </td>
                <td>{s.lastLoginAt ? <DateTime value={s.lastLoginAt} /> : t("never")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section aria-labelledby="channels-title">
        <h2 id="channels-title">{t("channels")}</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">{t("channel")}</th>
              <th scope="col">{t("tools")}</th>
            </tr>
          </thead>
          <tbody>
            {channels.map((c) => (
              <tr key={c.id}>
                <td>
                  {c.name} <span className="mono">({c.slug})</span>
                </td>
                <td className="mono">{c.allowedTools.join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section aria-labelledby="keys-title">
        <h2 id="keys-title">{t("agentKeys")}</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">{t("name")}</th>
              <th scope="col">{t("keyPrefix")}</th>
              <th scope="col">{t("channel")}</th>
              <th scope="col">{t("tools")}</th>
              <th scope="col">{t("status")}</th>
              <th scope="col">{t("lastUsed")}</th>
            </tr>
          </thead>
          <tbody>
            {agentKeys.map((k) => (
              <tr key={k.id}>
                <td>{k.name}</td>
                <td className="mono">{k.keyPrefix}…</td>
                <td className="mono">{k.channel.slug}</td>
                <td className="mono">{k.allowedTools.join(", ")}</td>
                <td>{k.revokedAt ? t("revoked") : t("active")}</td>
                <td>{k.lastUsedAt ? <DateTime value={k.lastUsedAt} /> : t("never")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
