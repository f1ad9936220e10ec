import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { listStaff } from "@/lib/server/admin/list-staff";
import { InputField } from "@/components/forms/field";
import type { Column } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { Section } from "@/components/page/section";
import { AdminTable } from "./admin-table";
import { InviteStaffForm } from "./invite-staff-form";

type Staff = Awaited<ReturnType<typeof listStaff>>;

/** The tenant's staff (searchable by the `q` in the URL): roles, status, passkeys, last sign-in; the invite form. */
export async function StaffSection({
  staff,
  q,
  section,
}: {
  staff: Staff;
  q: string | undefined;
  /** The page's `?section=` (kept by the search, so it stays on the section shown). */
  section?: string;
}) {
  const t = await getTranslations("admin");
  const tm = await getTranslations("adminManage");
  const tr = await getTranslations("roles");
  const columns: Column<Staff[number]>[] = [
    { id: "name", header: t("name"), cell: (s) => <Link href={`/admin/staff/${s.id}`}>{s.name}</Link> },
    { id: "email", header: t("email"), cell: (s) => s.email },
    {
      id: "roles",
      header: t("roles"),
      cell: (s) =>
        s.roles.map((r) => (
          <span key={r} className="badge">
            {tr(r)}
          </span>
        )),
    },
    {
      id: "status",
      header: t("status"),
      cell: (s) => (
        <>
          {s.disabled ? t("disabled") : t("active")}
          {s.lockedUntil ? (
            <span className="badge danger">
              {t.rich("locked", { time: () => <DateTime value={s.lockedUntil!} /> })}
            </span>
          ) : null}
          {s.setupPendingUntil ? <span className="badge flag">{tm("setupPending")}</span> : null}
        </>
      ),
    },
    { id: "passkeys", header: tm("passkeys"), cell: (s) => s.passkeys },
    {
      id: "lastLogin",
      header: t("lastLogin"),
      cell: (s) => (s.lastLoginAt ? <DateTime value={s.lastLoginAt} /> : t("never")),
    },
  ];
  return (
    <Section titleId="staff-title" title={t("staff")} className="stack">
      <form method="get" className="filters" role="search" aria-label={tm("searchStaff")}>
        {section ? <input type="hidden" name="section" value={section} /> : null}
        <InputField id="staff-q" label={tm("searchStaff")} name="q" type="search" defaultValue={q ?? ""} />
        <button type="submit" className="secondary">
          {tm("search")}
        </button>
      </form>
      <AdminTable
        label={t("staff")}
        columns={columns}
        rows={staff}
        empty={<p className="muted">{tm("noStaffFound")}</p>}
      />
      <InviteStaffForm />
    </Section>
  );
}
