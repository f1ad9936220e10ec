import type { AbstractIntlMessages } from "next-intl";
import { getRequestConfig } from "next-intl/server";
import { cookies, headers } from "next/headers";
import { getActor } from "@/lib/server/auth/actor";
import { languageOf, negotiateLocale } from "@/lib/i18n/locales";

// Staff see their own (or their tenant's) language; signed-out pages follow the browser, or the
// language picked on the sign-in page.
export default getRequestConfig(async () => {
  const actor = await getActor();
  const picked = (await cookies()).get("ui-locale")?.value;
  const locale =
    actor?.locale ??
    (picked && /^[a-z]{2}(-[A-Z]{2})?$/.test(picked)
      ? picked
      : negotiateLocale((await headers()).get("accept-language")));
  const language = languageOf(locale);
  return {
    locale,
    timeZone: actor?.timeZone ?? "UTC",
    messages: ((await import(`../../messages/${language}.json`)) as { default: AbstractIntlMessages }).default,
  };
});
