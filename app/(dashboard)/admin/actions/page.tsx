import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { Section } from "@/components/page/section";
import { titleMetadata } from "@/components/page/title-metadata";
import { pageActor } from "@/lib/server/auth/page";
import { DeclarationList } from "./_components/declaration-list";

export const dynamic = "force-dynamic";
export const generateMetadata = titleMetadata("adminActions");

/**
 * Admin → Actions: the tenant's admin-declared actions (newest version of each, and the pending ones with their whole
 * spec for the second admin's review), and the way to declare one (docs/action-kinds.md, "Admin-declared actions").
 * The list is read from GET /api/admin/actions, the same JSON API automation uses.
 */
export default async function ActionsPage() {
  await pageActor("admin:manage");
  const t = await getTranslations("adminActions");
  return (
    <Section titleId="actions-title" title={t("title")} level={1} lead={t("intro")} className="stack">
      <p>
        <Link href="/admin/actions/new" className="button">
          {t("newAction")}
        </Link>
      </p>
      <DeclarationList />
    </Section>
  );
}
