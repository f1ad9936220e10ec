import Link from "next/link";
import { useTranslations } from "next-intl";
import { cn } from "@/lib/utils";

/** The Administration page's sections, in page order; `?section=<id>` shows one alone (none: all of them). */
export const adminSections = [
  "tenant",
  "policy",
  "changes",
  "notifications",
  "deliveries",
  "witnesses",
  "provider",
  "actionEndpoint",
  "staff",
  "agents",
  "integrations",
] as const;
export type AdminSection = (typeof adminSections)[number];

/** The section a `?section=` value names, or null (all sections) for anything else. */
export function adminSectionOf(raw: string | string[] | undefined): AdminSection | null {
  return typeof raw === "string" && (adminSections as readonly string[]).includes(raw) ? (raw as AdminSection) : null;
}

const href = (s: AdminSection | null) => (s ? `/admin?section=${s}` : "/admin");

/**
 * Navigation between the Administration page's sections, backed by the URL (a link per section, no script
 * needed): a tab strip from the `sm` breakpoint up; on a phone one compact disclosure menu naming the current
 * section. "Everything" is the whole page, as before.
 */
export function AdminNav({ current }: { current: AdminSection | null }) {
  const t = useTranslations("admin");
  const ta = useTranslations("adminActions");
  const name = (s: AdminSection | null) => (s ? t(`sections.${s}`) : t("sectionsAll"));
  const items = [null, ...adminSections] as const;
  const link = (s: AdminSection | null, className: string) => (
    <Link
      href={href(s)}
      aria-current={s === current ? "page" : undefined}
      className={cn(
        className,
        s === current ? "bg-primary text-primary-foreground" : "text-foreground hover:bg-secondary",
      )}
    >
      {name(s)}
    </Link>
  );
  // Admin-declared actions have a page of their own (/admin/actions), listed after the sections.
  const actions = (className: string) => (
    <li>
      <Link href="/admin/actions" className={cn(className, "text-foreground hover:bg-secondary")}>
        {ta("navLink")}
      </Link>
    </li>
  );
  return (
    <nav aria-label={t("sectionsNav")} data-testid="admin-nav">
      <ul className="hidden flex-wrap gap-1 border-b pb-2 sm:flex">
        {items.map((s) => (
          <li key={s ?? "all"}>{link(s, "inline-block rounded-md px-3 py-1.5 text-sm no-underline")}</li>
        ))}
        {actions("inline-block rounded-md px-3 py-1.5 text-sm no-underline")}
      </ul>
      {/* Keyed by the section: choosing one closes the menu instead of leaving it open over the section. */}
      <details key={current ?? "all"} className="rounded-md border sm:hidden">
        <summary className="cursor-pointer px-3 py-2 font-medium">{t("sectionsMenu", { name: name(current) })}</summary>
        <ul className="grid gap-0.5 p-1">
          {items.map((s) => (
            <li key={s ?? "all"}>{link(s, "block rounded-md px-3 py-2 no-underline")}</li>
          ))}
          {actions("block rounded-md px-3 py-2 no-underline")}
        </ul>
      </details>
    </nav>
  );
}
