import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { pageActor } from "@/lib/server/auth/page";
import { getTenantSettings } from "@/lib/server/admin/update-tenant-settings";
import { DateTime } from "@/components/ui/date-time";
import { ReviewWebhookSection } from "./_components/review-webhook-section";
import { WebhookDeliveriesSection } from "./_components/webhook-deliveries-section";
import { listStaff } from "@/lib/server/admin/list-staff";
import { listAgentKeys } from "@/lib/server/admin/list-agent-keys";
import { toolNames } from "@/lib/schemas/tools";
import { InviteStaffForm } from "./_components/invite-staff-form";
import { PolicySection } from "./_components/policy-section";
import { getPolicy } from "@/lib/server/admin/policy/get-policy";
import { CreateChannelForm, IssueAgentKeyForm, RevokeKeyButton, RotateSecretForm } from "./_components/agent-key-forms";
import { AdminChangesSection } from "./_components/admin-changes-section";
import { listAdminChanges } from "@/lib/server/admin/list-admin-changes";
import { TenantSettingsForm } from "./_components/tenant-settings-form";
import { listWitnesses } from "@/lib/server/admin/witnesses/list-witnesses";
import { WitnessesSection } from "./_components/witnesses-section";
import { ProviderConnectionSection } from "./_components/provider-connection-section";
import { IntegrationKeysSection } from "./_components/integration-keys-section";

export const dynamic = "force-dynamic";

/** The time zones offered as suggestions (any IANA name the server knows is accepted): the platform's, and the current one. */
function timeZoneChoices(current: string): string[] {
  return [...new Set([current, "UTC", ...Intl.supportedValuesOf("timeZone")])].sort();
}

export default async function AdminPage({ searchParams }: { searchParams: Promise<{ q?: string | string[] }> }) {
  const actor = await pageActor("admin:manage");
  const raw = (await searchParams).q;
  const q = typeof raw === "string" ? raw.slice(0, 100) : undefined;
  const [tenant, staff, { channels, keys }, policy, changes, witnesses] = await Promise.all([
    getTenantSettings(actor),
    listStaff(actor, { q }),
    listAgentKeys(actor),
    getPolicy(actor),
    listAdminChanges(actor),
    listWitnesses(actor),
  ]);
  const t = await getTranslations("admin");
  const tm = await getTranslations("adminManage");
  const tr = await getTranslations("roles");
  return (
    <div className="stack">
      <h1>{t("title")}</h1>

      <TenantSettingsForm settings={tenant} timeZones={timeZoneChoices(tenant.timeZone)} />

      <PolicySection
        version={policy.version}
        values={policy.values}
        pending={
          policy.pending
            ? {
                version: policy.pending.version,
                values: policy.pending.values,
                changes: policy.pending.changes,
                mine: policy.pending.mine,
              }
            : null
        }
        history={policy.history.map((h) => ({
          version: h.version,
          status: h.status,
          createdAt: h.createdAt.toISOString(),
          decidedAt: h.decidedAt?.toISOString() ?? null,
        }))}
        currency={tenant.currency}
      />

      <AdminChangesSection
        alone={changes.alone}
        tenantSlug={actor.tenantSlug}
        rows={changes.pending.map((c) => ({
          ...c,
          proposedBy: c.proposedBy.name,
          expiresAt: c.expiresAt.toISOString(),
        }))}
      />

      <ReviewWebhookSection actor={actor} />

      <WebhookDeliveriesSection actor={actor} channels={channels} />

      <WitnessesSection
        witnesses={witnesses.witnesses.map((w) => ({
          id: w.id,
          name: w.name,
          vkey: w.vkey,
          url: w.url,
          cosignedSize: w.cosignedSize,
          cosignedAt: w.cosignedAt?.toISOString() ?? null,
          lastError: w.lastError,
        }))}
        quorum={witnesses.quorum}
        origin={witnesses.origin}
        policy={witnesses.policy}
      />

      <ProviderConnectionSection actor={actor} />

      <section aria-labelledby="staff-title" className="stack">
        <h2 id="staff-title">{t("staff")}</h2>
        <form method="get" className="filters" role="search" aria-label={tm("searchStaff")}>
          <div className="field">
            <label htmlFor="staff-q">{tm("searchStaff")}</label>
            <input id="staff-q" name="q" type="search" defaultValue={q ?? ""} />
          </div>
          <button type="submit" className="secondary">
            {tm("search")}
          </button>
        </form>
        <table>
          <thead>
            <tr>
              <th scope="col">{t("name")}</th>
              <th scope="col">{t("email")}</th>
              <th scope="col">{t("roles")}</th>
              <th scope="col">{t("status")}</th>
              <th scope="col">{tm("passkeys")}</th>
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
                <td>
                  {s.roles.map((r) => (
                    <span key={r} className="badge">
                      {tr(r)}
                    </span>
                  ))}
                </td>
                <td>
                  {s.disabled ? t("disabled") : t("active")}
                  {s.lockedUntil ? (
                    <span className="badge danger">
                      {t.rich("locked", { time: () => <DateTime value={s.lockedUntil!} /> })}
                    </span>
                  ) : null}
                  {s.setupPendingUntil ? <span className="badge flag">{tm("setupPending")}</span> : null}
                </td>
                <td>{s.passkeys}</td>
                <td>{s.lastLoginAt ? <DateTime value={s.lastLoginAt} /> : t("never")}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {staff.length === 0 ? <p className="muted">{tm("noStaffFound")}</p> : null}
        <InviteStaffForm />
      </section>

      <section aria-labelledby="channels-title" className="stack">
        <h2 id="channels-title">{t("channels")}</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">{t("channel")}</th>
              <th scope="col">{t("tools")}</th>
              <th scope="col">{tm("secret")}</th>
            </tr>
          </thead>
          <tbody>
            {channels.map((c) => (
              <tr key={c.id}>
                <td>
                  {c.name} <span className="mono">({c.slug})</span>
                </td>
                <td className="mono">{c.allowedTools.join(", ")}</td>
                <td>
                  {c.previousSecretValidUntil ? (
                    <p>
                      {tm("overlapUntil")} <DateTime value={c.previousSecretValidUntil} />
                    </p>
                  ) : null}
                  <RotateSecretForm id={c.id} slug={c.slug} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <CreateChannelForm tools={[...toolNames]} />
      </section>

      <section aria-labelledby="keys-title" className="stack">
        <h2 id="keys-title">{t("agentKeys")}</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">{tm("label")}</th>
              <th scope="col">{t("keyPrefix")}</th>
              <th scope="col">{t("channel")}</th>
              <th scope="col">{t("tools")}</th>
              <th scope="col">{t("status")}</th>
              <th scope="col">{tm("calls")}</th>
              <th scope="col">{t("lastUsed")}</th>
              <th scope="col">{tm("actions")}</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.id}>
                <td>{k.label}</td>
                <td className="mono">{k.keyPrefix}…</td>
                <td className="mono">{k.channel}</td>
                <td className="mono">{k.tools.join(", ")}</td>
                <td>
                  {tm(`keyStatus.${k.status}`)}
                  {k.status === "active" && k.expiresAt ? (
                    <>
                      {" "}
                      ({tm("expires")} <DateTime value={k.expiresAt} />)
                    </>
                  ) : null}
                </td>
                <td>{k.calls}</td>
                <td>{k.lastUsedAt ? <DateTime value={k.lastUsedAt} /> : t("never")}</td>
                <td>{k.status === "revoked" ? null : <RevokeKeyButton id={k.id} label={k.label} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <IssueAgentKeyForm channels={channels.map((c) => ({ slug: c.slug, name: c.name }))} />
      </section>

      <IntegrationKeysSection actor={actor} />
    </div>
  );
}
