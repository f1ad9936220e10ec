import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { getSetupInvitation } from "@/lib/server/admin/complete-setup";
import { PASSWORD_MIN } from "@/lib/schemas/admin";
import { ProductMark } from "@/components/brand/product-mark";
import { SetupForm } from "./_components/setup-form";

export const dynamic = "force-dynamic";
// The token is in the URL: never send it onward in a Referer header.
export const metadata: Metadata = { referrer: "no-referrer", robots: { index: false } };

/** The one-time setup link an admin handed to an invited person: they choose their password here. */
export default async function SetupPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = await getSetupInvitation(token);
  const t = await getTranslations("setup");
  return (
    <main className="auth">
      <div className="card">
        <ProductMark />
        <h1>{t("title")}</h1>
        {invitation ? (
          <>
            <p className="lead">{t("welcome", { name: invitation.name, tenant: invitation.tenantName })}</p>
            <SetupForm token={token} email={invitation.email} minLength={PASSWORD_MIN} />
          </>
        ) : (
          <>
            <p className="error-box" role="alert">
              {t("invalid")}
            </p>
            <Link href="/sign-in">{t("toSignIn")}</Link>
          </>
        )}
      </div>
    </main>
  );
}
