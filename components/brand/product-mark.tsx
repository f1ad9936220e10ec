import { getTranslations } from "next-intl/server";

/** The product's name beside its mark (app/icon.svg, also the favicon): the first line of the sign-in and setup pages. */
export async function ProductMark() {
  const t = await getTranslations("app");
  return (
    <p className="mb-4 flex items-center gap-2 text-sm font-semibold">
      {/* eslint-disable-next-line @next/next/no-img-element -- a 24 px SVG: nothing for next/image to optimize */}
      <img src="/icon.svg" alt="" width={24} height={24} />
      {t("name")}
    </p>
  );
}
