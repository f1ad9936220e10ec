import { useLocale, useTranslations } from "next-intl";
import { formatMinor } from "@/lib/domain/format-money";

/**
 * An amount formatted for the reader's locale. `exact` adds the stored integer with its unit named
 * ("4999 USD in minor units"), so nobody has to guess whether 4999 means dollars or cents.
 */
export function Money({ minor, currency, exact = false }: { minor: number; currency: string; exact?: boolean }) {
  const locale = useLocale();
  const t = useTranslations("money");
  return (
    <span data-minor={minor} data-currency={currency}>
      {formatMinor(minor, currency, locale)}
      {exact ? (
        <span className="block text-xs font-normal text-muted-foreground">
          {t("minorUnits", { minor: String(minor), currency })}
        </span>
      ) : null}
    </span>
  );
}
