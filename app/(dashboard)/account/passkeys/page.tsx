import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { getActor } from "@/lib/server/auth/actor";
import { listPasskeys } from "@/lib/server/passkeys/list-passkeys";
import { DateTime } from "@/components/ui/date-time";
import { RegisterPasskeyForm } from "./_components/register-passkey-form";
import { PasskeyRowActions } from "./_components/passkey-row-actions";

export const dynamic = "force-dynamic";

// Every signed-in staff member manages their own passkeys here (no role needed; only their own rows).
export default async function PasskeysPage() {
  const actor = await getActor();
  if (!actor) redirect("/sign-in");
  const t = await getTranslations("passkeys");
  const tm = await getTranslations("passkeyManage");
  const passkeys = await listPasskeys(actor);
  return (
    <section aria-labelledby="passkeys-title">
      <h1 id="passkeys-title">{t("title")}</h1>
      <p className="lead">{t("description")}</p>
      {passkeys.length === 0 ? (
        <p className="muted" data-testid="no-passkeys">
          {t("empty")}
        </p>
      ) : (
        <table aria-label={t("listLabel")} data-testid="passkey-list">
          <thead>
            <tr>
              <th scope="col">{t("name")}</th>
              <th scope="col">{t("created")}</th>
              <th scope="col">{t("lastUsed")}</th>
              <th scope="col">{tm("actions")}</th>
            </tr>
          </thead>
          <tbody>
            {passkeys.map((p) => (
              <tr key={p.id} data-passkey-id={p.id}>
                <td>{p.name}</td>
                <td>
                  <DateTime value={p.createdAt} />
                </td>
                <td>{p.lastUsedAt ? <DateTime value={p.lastUsedAt} /> : t("never")}</td>
                <td>
                  <PasskeyRowActions id={p.id} name={p.name} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <RegisterPasskeyForm />
    </section>
  );
}
