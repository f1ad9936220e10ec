import { getTranslations } from "next-intl/server";
import { DateTime } from "@/components/ui/date-time";
import type { Actor } from "@/lib/server/auth/actor";
import { listIntegrationKeys } from "@/lib/server/integrations/list-integration-keys";
import { KeyStatusText, LastUsedText } from "./key-validity";
import { RevokeKeyButton } from "./agent-key-forms";
import { IssueIntegrationKeyForm } from "./integration-key-form";

/** Admin page section: the keys the shop's systems use on the Orders API (docs/systems-of-record.md). */
export async function IntegrationKeysSection({ actor }: { actor: Actor }) {
  const { keys } = await listIntegrationKeys(actor);
  const t = await getTranslations("admin");
  const tm = await getTranslations("adminManage");
  return (
    <section aria-labelledby="integration-keys-title" className="stack">
      <h2 id="integration-keys-title">{tm("integrationKeys")}</h2>
      <p className="muted">{tm("integrationKeysIntro")}</p>
      {keys.length === 0 ? (
        <p>{tm("noIntegrationKeys")}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{tm("label")}</th>
              <th scope="col">{t("keyPrefix")}</th>
              <th scope="col">{tm("scopes")}</th>
              <th scope="col">{t("status")}</th>
              <th scope="col">{tm("created")}</th>
              <th scope="col">{t("lastUsed")}</th>
              <th scope="col">{tm("actions")}</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.id}>
                <td>{k.label}</td>
                <td className="mono">{k.keyPrefix}…</td>
                <td className="mono">{k.scopes.join(", ")}</td>
                <td>
                  <KeyStatusText status={k.status} expiresAt={k.expiresAt} />
                </td>
                <td>
                  <DateTime value={k.createdAt} />
                </td>
                <td>
                  <LastUsedText at={k.lastUsedAt} />
                </td>
                <td>
                  {k.status === "revoked" ? null : <RevokeKeyButton id={k.id} label={k.label} kind="integration" />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <IssueIntegrationKeyForm />
    </section>
  );
}
