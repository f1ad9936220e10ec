import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { NextIntlClientProvider } from "next-intl";
import { getLocale, getTranslations } from "next-intl/server";
import { headers } from "next/headers";
import { Providers } from "@/components/providers";
import { ThemeScript } from "@/components/theme/theme-script";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("app");
  // Pages set their own title; the template adds the product name after it.
  return { title: { default: t("name"), template: `%s · ${t("name")}` }, description: t("tagline") };
}

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#f8fafc" },
    { media: "(prefers-color-scheme: dark)", color: "#15171c" },
  ],
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const locale = await getLocale();
  // The CSP nonce of this response (proxy.ts), for the theme's inline no-flash script.
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    // The theme script sets the theme class on <html> before hydration: the mismatch is expected.
    <html lang={locale} suppressHydrationWarning>
      <body>
        <ThemeScript nonce={nonce} />
        <NextIntlClientProvider>
          <Providers>{children}</Providers>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
