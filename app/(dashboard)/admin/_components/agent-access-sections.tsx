import { getTranslations } from "next-intl/server";
import type { listAgentKeys } from "@/lib/server/admin/list-agent-keys";
import { offeredToolNames } from "@/lib/schemas/tools";
import type { Column } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { Section } from "@/components/page/section";
import { keyColumns } from "./key-validity";
import { AdminTable } from "./admin-table";
import { CreateChannelForm, IssueAgentKeyForm, RotateSecretForm } from "./agent-key-forms";

type AgentAccess = Awaited<ReturnType<typeof listAgentKeys>>;
type Channel = AgentAccess["channels"][number];

/** How agents reach the gateway: channels (allowed tools, secret rotation) and agent keys (issue, revoke). */
export async function AgentAccessSections({ channels, keys }: AgentAccess) {
  const t = await getTranslations("admin");
  const tm = await getTranslations("adminManage");
  const channelColumns: Column<Channel>[] = [
    {
      id: "channel",
      header: t("channel"),
      cell: (c) => (
        <>
          {c.name} <span className="mono">({c.slug})</span>
        </>
      ),
    },
    { id: "tools", header: t("tools"), cell: (c) => c.allowedTools.join(", "), className: "mono" },
    {
      id: "secret",
      header: tm("secret"),
      cell: (c) => (
        <>
          {c.previousSecretValidUntil ? (
            <p>
              {tm("overlapUntil")} <DateTime value={c.previousSecretValidUntil} />
            </p>
          ) : null}
          <RotateSecretForm id={c.id} slug={c.slug} />
        </>
      ),
    },
  ];
  const columns = await keyColumns<AgentAccess["keys"][number]>(
    "agent",
    [
      { id: "channel", header: t("channel"), cell: (k) => k.channel, className: "mono" },
      { id: "tools", header: t("tools"), cell: (k) => k.tools.join(", "), className: "mono" },
    ],
    [{ id: "calls", header: tm("calls"), cell: (k) => k.calls }],
  );
  return (
    <>
      <Section titleId="channels-title" title={t("channels")} className="stack">
        <AdminTable label={t("channels")} columns={channelColumns} rows={channels} />
        <CreateChannelForm tools={[...offeredToolNames]} />
      </Section>

      <Section titleId="keys-title" title={t("agentKeys")} className="stack">
        <AdminTable label={t("agentKeys")} columns={columns} rows={keys} />
        <IssueAgentKeyForm channels={channels.map((c) => ({ slug: c.slug, name: c.name }))} />
      </Section>
    </>
  );
}
