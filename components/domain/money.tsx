"use client";

import { useLocale } from "next-intl";
import { formatMinor } from "@/lib/domain/format-money";

/** An amount formatted for the reader's locale, with the exact minor units and currency beside it. */
export function Money({ minor, currency, exact = false }: { minor: number; currency: string; exact?: boolean }) {
  const locale = useLocale();
  return (
    <span data-minor={minor} data-currency={currency}>
      {formatMinor(minor, currency, locale)}
      {exact ? (
        <span className="muted mono">
          {" "}
          ({minor} {currency})
        </span>
      ) : null}
    </span>
  );
}
