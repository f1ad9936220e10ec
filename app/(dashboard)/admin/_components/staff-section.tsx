import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { listStaff } from "@/lib/server/admin/list-staff";
import { DateTime } from "@/components/ui/date-time";
import { InviteStaffForm } from "./invite-staff-form";

type Staff = Awaited<ReturnType<typeof listStaff>>;

/** The tenant's staff (searchable by the `q` in the URL): roles, status, passkeys, last sign-in; the invite form. */
export async function StaffSection({ staff, q }: { staff: Staff; q: string | undefined }) {
  const t = await getTranslations("admin");
  const tm = await getTranslations("adminManage");
  const tr = await getTranslations("roles");
  return (
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
  );
}
