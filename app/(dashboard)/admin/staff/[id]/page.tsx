import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { pageActor } from "@/lib/server/auth/page";
import { orNotFound } from "@/app/(dashboard)/or-not-found";
import { getStaffMember } from "@/lib/server/admin/get-staff-member";
import { DateTime } from "@/components/ui/date-time";
import { StaffActions } from "./_components/staff-actions";

export const dynamic = "force-dynamic";

export default async function StaffMemberPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await pageActor("admin:manage");
  const { id } = await params;
  const member = await orNotFound(getStaffMember(actor, id));
  const t = await getTranslations("admin");
  const tr = await getTranslations("roles");
  const tm = await getTranslations("adminManage");
  const locked = !!member.lockedUntil && member.lockedUntil > new Date();
  return (
    <div className="stack">
      <p>
        <Link href="/admin">← {t("backToAdmin")}</Link>
      </p>
      <h1>{member.name}</h1>
      <dl className="facts panel">
        <dt>{t("email")}</dt>
        <dd>{member.email}</dd>
        <dt>{t("roles")}</dt>
        <dd>{member.roles.map((r) => tr(r)).join(", ")}</dd>
        <dt>{t("status")}</dt>
        <dd>
          {member.disabled ? t("disabled") : t("active")}
          {locked && member.lockedUntil ? (
            <span className="badge danger">
              {t.rich("locked", { time: () => <DateTime value={member.lockedUntil!} /> })}
            </span>
          ) : null}
        </dd>
        <dt>{tm("passkeys")}</dt>
        <dd>{member._count.passkeys}</dd>
        <dt>{t("lastLogin")}</dt>
        <dd>{member.lastLoginAt ? <DateTime value={member.lastLoginAt} /> : t("never")}</dd>
        <dt>{t("createdAt")}</dt>
        <dd>
          <DateTime value={member.createdAt} />
        </dd>
      </dl>
      <StaffActions
        member={{
          id: member.id,
          roles: member.roles,
          disabled: member.disabled,
          locked,
          self: member.id === actor.userId,
        }}
      />
    </div>
  );
}
