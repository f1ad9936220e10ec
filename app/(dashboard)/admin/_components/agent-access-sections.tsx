import { getTranslations } from "next-intl/server";
import type { listAgentKeys } from "@/lib/server/admin/list-agent-keys";
import { toolNames } from "@/lib/schemas/tools";
import { DateTime } from "@/components/ui/date-time";
import { KeyStatusText, LastUsedText } from "./key-validity";
import { CreateChannelForm, IssueAgentKeyForm, RevokeKeyButton, RotateSecretForm } from "./agent-key-forms";

type AgentAccess = Awaited<ReturnType<typeof listAgentKeys>>;

/** How agents reach the gateway: channels (allowed tools, secret rotation) and agent keys (issue, revoke). */
export async function AgentAccessSections({ channels, keys }: AgentAccess) {
  const t = await getTranslations("admin");
  const tm = await getTranslations("adminManage");
  return (
    <>
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
                  <KeyStatusText status={k.status} expiresAt={k.expiresAt} />
                </td>
                <td>{k.calls}</td>
                <td>
                  <LastUsedText at={k.lastUsedAt} />
                </td>
                <td>{k.status === "revoked" ? null : <RevokeKeyButton id={k.id} label={k.label} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <IssueAgentKeyForm channels={channels.map((c) => ({ slug: c.slug, name: c.name }))} />
      </section>
    </>
  );
}
