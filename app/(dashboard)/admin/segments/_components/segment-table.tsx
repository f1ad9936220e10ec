import { getTranslations } from "next-intl/server";
import { DateTime } from "@/components/ui/date-time";
import type { SegmentFilter, SegmentView } from "@/lib/schemas/segments";

/** The filter on one line: each condition the segment holds, as declared. */
function filterLine(f: SegmentFilter, t: (key: string) => string): string {
  return [
    f.statuses ? `${t("statuses")}: ${f.statuses.join(", ")}` : null,
    f.skus ? `${t("skus")}: ${f.skus.join(", ")}` : null,
    f.placedFrom ? `${t("placedFrom")}: ${f.placedFrom}` : null,
    f.placedTo ? `${t("placedTo")}: ${f.placedTo}` : null,
    f.countries ? `${t("countries")}: ${f.countries.join(", ")}` : null,
  ]
    .filter((part): part is string => part !== null)
    .join(" · ");
}

/** The tenant's segments, each at its newest version. */
export async function SegmentTable({ segments }: { segments: SegmentView[] }) {
  const t = await getTranslations("adminSegments");
  if (segments.length === 0) return <p className="muted">{t("none")}</p>;
  return (
    <table data-testid="segments-table">
      <thead>
        <tr>
          <th scope="col">{t("slug")}</th>
          <th scope="col">{t("name")}</th>
          <th scope="col">{t("version")}</th>
          <th scope="col">{t("filter")}</th>
          <th scope="col">{t("createdAt")}</th>
        </tr>
      </thead>
      <tbody>
        {segments.map((s) => (
          <tr key={s.id}>
            <td>
              <code className="mono">{s.slug}</code>
            </td>
            <td>{s.name}</td>
            <td>v{s.version}</td>
            <td className="wrap-anywhere">{filterLine(s.filter, t)}</td>
            <td>
              <DateTime value={s.createdAt} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
