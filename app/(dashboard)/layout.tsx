import type { ReactNode } from "react";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { getActor } from "@/lib/server/auth/actor";
import { can, visibleNavigation } from "@/lib/domain/permissions";
import { MainNav } from "@/components/layout/main-nav";
import { SignOutButton } from "@/components/layout/sign-out-button";
import { TraceBox } from "@/components/layout/trace-box";
import Link from "next/link";

export const dynamic = "force-dynamic";

// Redirects signed-out visitors; every page below still checks its own permission.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const actor = await getActor();
  if (!actor) redirect("/sign-in");
  const t = await getTranslations();
  const items = visibleNavigation(actor.roles).map((i) => ({ href: i.href, label: t(`nav.${i.key}`) }));
  return (
    <div className="shell">
      <aside className="sidebar">
        <div className="brand">{t("app.name")}</div>
        <MainNav items={items} label={t("nav.main")} />
        {can(actor.roles, "audit:trace") ? <TraceBox label={t("traceBox.label")} placeholder={t("traceBox.placeholder")} submit={t("traceBox.open")} /> : null}
        <div className="who" data-testid="who">
          <span>{t("user.signedInAs", { name: actor.name })}</span>
          <span>
            {t("user.tenant")}: <strong>{actor.tenantSlug}</strong>
          </span>
          <span>
            {t("user.roles")}: {actor.roles.map((r) => t(`roles.${r}`)).join(", ")}
          </span>
          <Link href="/account/passkeys">{t("passkeys.nav")}</Link>
          <SignOutButton label={t("user.signOut")} />
        </div>
      </aside>
      <main className="main" id="main">
        {children}
      </main>
    </div>
  );
}
