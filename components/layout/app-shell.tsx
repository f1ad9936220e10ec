import type { ReactNode } from "react";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { can, visibleNavigation, type Role } from "@/lib/domain/permissions";
import { APP_VERSION } from "@/lib/config/version";

/** What the shell shows of the signed-in person (the page passes its actor; nothing from lib/server here). */
type ShellUser = { name: string; tenantSlug: string; roles: readonly Role[] };
import { ThemeSwitch } from "@/components/theme/theme-switch";
import { MainNav } from "./main-nav";
import { MobileNav } from "./mobile-nav";
import { SignOutButton } from "./sign-out-button";
import { CommandMenu } from "./command-menu";
import { TraceBox } from "./trace-box";
import { TabTitle } from "./tab-title";
import { InboxBadge } from "./inbox-badge";
import { Kbd } from "@/components/ui/kbd";
import { MenuIcon, MonitorIcon, MoonIcon, SearchIcon, SunIcon } from "./shell-icons";

/**
 * The signed-in frame: a sidebar on wide screens, a header with the navigation in a sheet on phones.
 * `header` is the slot for header tools (trace lookup, command palette trigger).
 */
export async function AppShell({
  actor,
  children,
  header,
  pending = null,
  inbox = null,
}: {
  actor: ShellUser;
  children: ReactNode;
  header?: ReactNode;
  /** Reviewers: how many proposals wait (the tab title's live count); null for other roles. */
  pending?: { count: number; capped: boolean } | null;
  /** What waits for this person (the inbox link's live badge); null for roles without an inbox. */
  inbox?: number | null;
}) {
  const t = await getTranslations();
  const items = visibleNavigation(actor.roles).map((i) => ({
    href: i.href,
    label: t(`nav.${i.key}`),
    ...(i.key === "inbox" && inbox !== null ? { badge: <InboxBadge initial={inbox} /> } : {}),
  }));
  const routes = [
    ...items.map((i) => ({ prefix: i.href, label: i.label })),
    { prefix: "/proposals", label: t("shell.proposalTitle") },
    { prefix: "/account/passkeys", label: t("passkeys.nav") },
  ];
  const who = (
    <div className="grid gap-2 text-sm text-sidebar-foreground" data-testid="who">
      <span>{t("user.signedInAs", { name: actor.name })}</span>
      <span>
        {t("user.tenant")}: <strong>{actor.tenantSlug}</strong>
      </span>
      <span>
        {t("user.roles")}: {actor.roles.map((r) => t(`roles.${r}`)).join(", ")}
      </span>
      <Link href="/account/passkeys">{t("passkeys.nav")}</Link>
      {can(actor.roles, "proposal:decide") || can(actor.roles, "executions:reconcile") ? (
        <Link href="/account/notifications">{t("notifications.prefs.title")}</Link>
      ) : null}
      <ThemeSwitch
        icons={{
          light: <SunIcon className="size-4" />,
          dark: <MoonIcon className="size-4" />,
          system: <MonitorIcon className="size-4" />,
        }}
      />
      <div>
        <SignOutButton label={t("user.signOut")} />
      </div>
      <span className="text-xs text-muted-foreground" data-testid="app-version">
        {t("app.name")} {APP_VERSION}
      </span>
    </div>
  );
  // Reviewers and ops open one trace by its exact id (the lead's "Trace" box).
  // Rendered twice (sidebar, phone sheet): each copy gets its own input id.
  const traceBox = (idSuffix: string) =>
    can(actor.roles, "audit:trace") ? (
      <TraceBox
        label={t("traceBox.label")}
        placeholder={t("traceBox.placeholder")}
        submit={t("traceBox.open")}
        idSuffix={idSuffix}
      />
    ) : null;
  return (
    <div className="min-h-dvh md:grid md:grid-cols-[15rem_minmax(0,1fr)]">
      <TabTitle appName={t("app.name")} routes={routes} pending={pending} />
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-background px-3 py-2 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        {t("shell.skip")}
      </a>
      <aside className="sticky top-0 hidden h-dvh flex-col gap-6 border-r bg-sidebar p-4 md:flex">
        <Link href="/" className="px-3 font-semibold text-sidebar-foreground no-underline hover:no-underline">
          {t("app.name")}
        </Link>
        <MainNav items={items} label={t("nav.main")} />
        {traceBox("")}
        <div className="mt-auto">{who}</div>
      </aside>
      <div className="flex min-w-0 flex-col">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b bg-background/90 px-3 backdrop-blur sm:px-6">
          <MobileNav
            items={items}
            label={t("nav.main")}
            title={t("app.name")}
            openLabel={t("shell.openMenu")}
            icon={<MenuIcon />}
            closeLabel={t("shell.close")}
            footer={
              <>
                {traceBox("-sheet")}
                {who}
              </>
            }
          />
          <span className="font-semibold md:hidden">{t("app.name")}</span>
          <div className="ml-auto flex min-w-0 items-center gap-2">
            {header}
            <CommandMenu
              items={items}
              icon={<SearchIcon />}
              hint={
                <span className="hidden sm:inline-flex">
                  <Kbd>⌘K</Kbd>
                </span>
              }
            />
          </div>
        </header>
        <main id="main" className="mx-auto w-full max-w-7xl min-w-0 flex-1 px-4 py-5 sm:px-6 lg:px-8">
          {children}
        </main>
      </div>
    </div>
  );
}
