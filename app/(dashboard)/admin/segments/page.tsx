import { getTranslations } from "next-intl/server";
import { Section } from "@/components/page/section";
import { listSegments } from "@/lib/server/admin/segments";
import { pageActor } from "@/lib/server/auth/page";
import { SegmentForm } from "./_components/segment-form";
import { SegmentTable } from "./_components/segment-table";

export const dynamic = "force-dynamic";

/**
 * Admin → Segments: the tenant's segments (each at its newest version) and a form to declare one or its next version
 * (docs/admin-api.md "Segments"; send_bulk_message reads them).
 */
export default async function SegmentsPage() {
  const actor = await pageActor("admin:manage");
  const [{ data }, t] = await Promise.all([listSegments(actor), getTranslations("adminSegments")]);
  return (
    <Section titleId="segments-title" title={t("title")} level={1} lead={t("intro")} className="stack">
      <SegmentTable segments={data} />
      <SegmentForm />
    </Section>
  );
}
