import { getTranslations } from "next-intl/server";
import { Section } from "@/components/page/section";
import { getBulkPolicy, listSegments } from "@/lib/server/admin/segments";
import { pageActor } from "@/lib/server/auth/page";
import { BulkPolicyForm } from "./_components/bulk-policy-form";
import { SegmentForm } from "./_components/segment-form";
import { SegmentTable } from "./_components/segment-table";

export const dynamic = "force-dynamic";

/**
 * Admin → Segments: the tenant's segments (each at its newest version) and a form to declare one or its next version
 * (docs/admin-api.md "Segments"; send_bulk_message reads them), and the bulk-message policy's form.
 */
export default async function SegmentsPage() {
  const actor = await pageActor("admin:manage");
  const [{ data }, policy, t] = await Promise.all([
    listSegments(actor),
    getBulkPolicy(actor),
    getTranslations("adminSegments"),
  ]);
  return (
    <Section titleId="segments-title" title={t("title")} level={1} lead={t("intro")} className="stack">
      <SegmentTable segments={data} />
      <SegmentForm />
      <BulkPolicyForm policy={policy} />
    </Section>
  );
}
