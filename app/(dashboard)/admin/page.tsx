import { getTranslations } from "next-intl/server";
import { pageActor } from "@/lib/server/auth/page";
import { getTenantSettings } from "@/lib/server/admin/update-tenant-settings";
import { ReviewWebhookSection } from "./_components/review-webhook-section";
import { WebhookDeliveriesSection } from "./_components/webhook-deliveries-section";
import { listStaff } from "@/lib/server/admin/list-staff";
import { listAgentKeys } from "@/lib/server/admin/list-agent-keys";
import { PolicySection } from "./_components/policy-section";
import { ConfirmationPolicySection } from "./_components/confirmation-policy-section";
import { getPolicy } from "@/lib/server/admin/policy/get-policy";
import { AgentAccessSections } from "./_components/agent-access-sections";
import { StaffSection } from "./_components/staff-section";
import { AdminChangesSection } from "./_components/admin-changes-section";
import { listAdminChanges } from "@/lib/server/admin/list-admin-changes";
import { TenantSettingsForm } from "./_components/tenant-settings-form";
import { listWitnesses } from "@/lib/server/admin/witnesses/list-witnesses";
import { WitnessesSection } from "./_components/witnesses-section";
import { ProviderConnectionSection } from "./_components/provider-connection-section";
import { ActionEndpointSection } from "./_components/action-endpoint-section";
import { IntegrationKeysSection } from "./_components/integration-keys-section";
import { AdminNav, adminSectionOf, type AdminSection } from "./_components/admin-nav";

export const dynamic = "force-dynamic";

/** The time zones offered as suggestions (any IANA name the server knows is accepted): the platform's, and the current one. */
function timeZoneChoices(current: string): string[] {
  return [...new Set([current, "UTC", ...Intl.supportedValuesOf("timeZone")])].sort();
}

export default async function AdminPage({
  searchParams,
}: {
  searchParams: Promise<{ q?: string | string[]; section?: string | string[] }>;
}) {
  const actor = await pageActor("admin:manage");
  const params = await searchParams;
  const raw = params.q;
  const q = typeof raw === "string" ? raw.slice(0, 100) : undefined;
  // ?section=<id>: that section alone (the page's navigation); none or an unknown one: every section.
  const section = adminSectionOf(params.section);
  const show = (s: AdminSection) => section === null || section === s;
  const [tenant, staff, agents, policy, changes, witnesses] = await Promise.all([
    getTenantSettings(actor),
    show("staff") ? listStaff(actor, { q }) : null,
    show("agents") || show("deliveries") ? listAgentKeys(actor) : null,
    show("policy") ? getPolicy(actor) : null,
    show("changes") ? listAdminChanges(actor) : null,
    show("witnesses") ? listWitnesses(actor) : null,
  ]);
  const t = await getTranslations("admin");
  return (
    <div className="stack">
      <h1>{t("title")}</h1>

      <AdminNav current={section} />

      {show("tenant") ? <TenantSettingsForm settings={tenant} timeZones={timeZoneChoices(tenant.timeZone)} /> : null}

      {policy ? (
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
      ) : null}

      {show("policy") ? <ConfirmationPolicySection actor={actor} /> : null}

      {changes ? (
        <AdminChangesSection
          alone={changes.alone}
          tenantSlug={actor.tenantSlug}
          rows={changes.pending.map((c) => ({
            ...c,
            proposedBy: c.proposedBy.name,
            expiresAt: c.expiresAt.toISOString(),
          }))}
        />
      ) : null}

      {show("notifications") ? <ReviewWebhookSection actor={actor} /> : null}

      {agents && show("deliveries") ? <WebhookDeliveriesSection actor={actor} channels={agents.channels} /> : null}

      {witnesses ? (
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
      ) : null}

      {show("provider") ? <ProviderConnectionSection actor={actor} /> : null}

      {show("actionEndpoint") ? <ActionEndpointSection actor={actor} /> : null}

      {staff ? <StaffSection staff={staff} q={q} section={section ?? undefined} /> : null}

      {agents && show("agents") ? <AgentAccessSections channels={agents.channels} keys={agents.keys} /> : null}

      {show("integrations") ? <IntegrationKeysSection actor={actor} /> : null}
    </div>
  );
}
