import "server-only";
import type { NextAuthOptions, User } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { decode as decodeJwt, type JWTDecodeParams } from "next-auth/jwt";
import { z } from "zod";
import { db } from "@/lib/server/db/client";
import { oidcConfig, previousSecret, secret } from "@/lib/server/env";
import { log } from "@/lib/server/log";
import { verifyCredentials } from "@/lib/server/auth/verify-credentials";
import { recordSignIn } from "@/lib/server/auth/record-sign-in";
import { signInInput } from "@/lib/schemas/auth";
import { SESSION_IDLE_SECONDS } from "@/lib/server/auth/session-lifetime";
import { sameOriginPath } from "@/lib/domain/safe-callback";
import { signInPausedError } from "@/lib/domain/sign-in-error";
import { openStaffSession } from "@/lib/server/auth/open-staff-session";

type StaffClaims = {
  uid: string;
  tenantId: string;
  roles: string[];
  locale: string;
  authTime: number;
  sv: number;
  amr: string;
  sid?: string;
};

declare module "next-auth" {
  interface Session {
    // The session's user carries the token's staff claims (uid becomes id) beside next-auth's name and email.
    user: { id: string; name: string; email: string } & Omit<StaffClaims, "uid">;
  }
}
declare module "next-auth/jwt" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- module augmentation must be an interface that extends
  interface JWT extends Partial<StaffClaims> {}
}

type StaffUserForToken = User & Omit<StaffClaims, "uid" | "authTime" | "amr" | "sid">;

function oidcProvider() {
  const cfg = oidcConfig();
  if (!cfg) return [];
  return [
    {
      id: "oidc",
      name: cfg.name,
      type: "oauth" as const,
      wellKnown: `${cfg.issuer.replace(/\/$/, "")}/.well-known/openid-configuration`,
      clientId: cfg.clientId,
      clientSecret: cfg.clientSecret,
      idToken: true,
      checks: ["pkce", "state", "nonce"] as ("pkce" | "state" | "nonce")[],
      authorization: { params: { scope: "openid email profile" } },
      profile(profile: { sub: string; email?: string; name?: string }) {
        return { id: profile.sub, email: profile.email ?? null, name: profile.name ?? null };
      },
    },
  ];
}

/**
 * Rotation overlap (docs/operations.md "Keys and rotation"): a session cookie that the current secret cannot
 * open is tried with NEXTAUTH_SECRET_PREVIOUS. next-auth re-issues the cookie under the current secret on the
 * next request, so active sessions move over during the overlap; once the previous secret is removed, the rest
 * are refused (sign in again).
 */
async function decodeWithOverlap(params: JWTDecodeParams) {
  try {
    return await decodeJwt(params);
  } catch (error) {
    const previous = previousSecret("NEXTAUTH_SECRET");
    if (!previous) throw error;
    return decodeJwt({ ...params, secret: previous });
  }
}

export function authOptions(): NextAuthOptions {
  return {
    secret: secret("NEXTAUTH_SECRET"),
    jwt: { decode: decodeWithOverlap },
    session: { strategy: "jwt", maxAge: SESSION_IDLE_SECONDS },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    providers: [
      CredentialsProvider({
        id: "credentials",
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(raw) {
          const parsed = signInInput.safeParse(raw ?? {});
          if (!parsed.success) return null;
          const result = await verifyCredentials(parsed.data.email, parsed.data.password);
          await recordSignIn({ email: parsed.data.email, method: "password", result });
          // A paused account: say so and until when (next-auth carries the thrown message to the page). Said
          // whatever the password, which is not evaluated during a pause — it reveals only that this email has
          // an account that is paused, never whether a password is right (docs/staff-api.md "Sign-in").
          if (!result.ok && result.reason === "locked") throw new Error(signInPausedError(result.lockedUntil));
          if (!result.ok) return null;
          const u = result.user;
          return {
            id: u.id,
            email: u.email,
            name: u.name,
            tenantId: u.tenantId,
            roles: u.roles,
            locale: u.locale,
            sv: u.sessionVersion,
          } satisfies StaffUserForToken;
        },
      }),
      ...oidcProvider(),
    ],
    callbacks: {
      // Every redirect next-auth makes (after sign-in, SSO and sign-out) goes through the one parser:
      // a same-origin path on our base URL, else the base URL itself.
      redirect({ url, baseUrl }) {
        const path = sameOriginPath(url, baseUrl);
        return Promise.resolve(path ? `${new URL(baseUrl).origin}${path}` : baseUrl);
      },
      // SSO: only people who already are staff (by verified email) may sign in; no self-sign-up.
      async signIn({ user, account, profile }) {
        if (account?.provider !== "oidc") return true;
        const email = z.email().safeParse(user.email);
        if (!email.success) return false;
        // The provider must vouch for the address: an unverified email is not an identity.
        if ((profile as { email_verified?: unknown } | undefined)?.email_verified === false) return false;
        const staff = await db().staffUser.findUnique({
          where: { email: email.data.toLowerCase() },
          include: { tenant: true },
        });
        const ok = !!staff && !staff.disabled && staff.tenant.active;
        await recordSignIn({
          email: email.data,
          method: "oidc",
          result:
            ok && staff
              ? { ok: true, user: { ...staff, locale: staff.locale ?? staff.tenant.locale } }
              : { ok: false, reason: "unknown_user" },
        });
        return ok;
      },
      async jwt({ token, user, account }) {
        if (!user) return token;
        // A fresh sign-in: new claims, new authentication time (the step-up clock).
        let claims: Omit<StaffClaims, "authTime" | "amr" | "sid">;
        if (account?.provider === "oidc") {
          const staff = await db().staffUser.findUniqueOrThrow({
            where: { email: String(user.email).toLowerCase() },
            include: { tenant: true },
          });
          claims = {
            uid: staff.id,
            tenantId: staff.tenantId,
            roles: staff.roles,
            locale: staff.locale ?? staff.tenant.locale,
            sv: staff.sessionVersion,
          };
        } else {
          const u = user as StaffUserForToken;
          claims = { uid: u.id, tenantId: u.tenantId, roles: u.roles, locale: u.locale, sv: u.sv };
        }
        const amr = account?.provider === "oidc" ? "oidc" : "password";
        // The session's step-up window is kept server-side (lib/server/auth/renew-step-up.ts renews it).
        const sid = await openStaffSession({ id: claims.uid, tenantId: claims.tenantId }, amr);
        return {
          sub: claims.uid,
          name: user.name,
          email: user.email,
          ...claims,
          authTime: Math.floor(Date.now() / 1000),
          amr,
          sid,
        };
      },
      async session({ session, token }) {
        session.user = {
          id: token.uid ?? "",
          name: token.name ?? "",
          email: token.email ?? "",
          tenantId: token.tenantId ?? "",
          roles: token.roles ?? [],
          locale: token.locale ?? "en-US",
          authTime: token.authTime ?? 0,
          sv: token.sv ?? -1,
          amr: token.amr ?? "password",
          ...(token.sid ? { sid: token.sid } : {}),
        };
        return session;
      },
    },
    events: {
      // Sign-out voids every session of this user, not only this browser's cookie.
      async signOut({ token }) {
        if (!token?.uid) return;
        await db().staffUser.updateMany({ where: { id: token.uid }, data: { sessionVersion: { increment: 1 } } });
      },
    },
    logger: {
      error: (code, metadata) =>
        log.error({ code, err: metadata instanceof Error ? metadata.message : undefined }, "next-auth error"),
      warn: (code) => log.warn({ code }, "next-auth warning"),
      debug: () => undefined,
    },
  };
}
