import { getTranslations } from "next-intl/server";
import { Section } from "@/components/page/section";
import { titleMetadata } from "@/components/page/title-metadata";
import { pageActor } from "@/lib/server/auth/page";
import { NewDeclaration } from "./_components/new-declaration";

export const dynamic = "force-dynamic";
export const generateMetadata = titleMetadata("adminActions.form");

/**
 * Admin → Actions → New: the form of a declaration; `?from=<name>` starts the next version of that action from its
 * active version. Proposing never changes what agents can do: another admin approves it on /admin/actions.
 */
export default async function NewActionPage({ searchParams }: { searchParams: Promise<{ from?: string | string[] }> }) {
  await pageActor("admin:manage");
  const raw = (await searchParams).from;
  const from = typeof raw === "string" && raw ? raw.slice(0, 48) : null;
  const t = await getTranslations("adminActions.form");
  return (
    <Section
      titleId="actions-title"
      title={from ? t("fromTitle", { name: from }) : t("title")}
      level={1}
      lead={t("lead")}
      className="stack"
    >
      <NewDeclaration from={from} />
    </Section>
  );
}
