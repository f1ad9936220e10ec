import { redirect } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { getActor } from "@/lib/server/auth/actor";
import { appBaseUrl, oidcConfig } from "@/lib/server/env";
import { safeCallbackPath } from "@/lib/domain/safe-callback";
import { languageOf } from "@/lib/i18n/locales";
import { ProductMark } from "@/components/brand/product-mark";
import { SignInForm } from "./_components/sign-in-form";

export const dynamic = "force-dynamic";

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const callbackPath = safeCallbackPath(
    typeof params.callbackUrl === "string" ? params.callbackUrl : undefined,
    appBaseUrl(),
  );
  if (await getActor()) redirect(callbackPath);
  const t = await getTranslations("signIn");
  const oidc = oidcConfig();
  const error = typeof params.error === "string" ? params.error : undefined;
  return (
    <main className="auth">
      <div className="card">
        <ProductMark />
        <h1>{t("title")}</h1>
        <p className="lead">{t("subtitle")}</p>
        <SignInForm
          callbackPath={callbackPath}
          ssoName={oidc?.name ?? null}
          initialError={error ?? null}
          language={languageOf(await getLocale())}
        />
      </div>
    </main>
  );
}
