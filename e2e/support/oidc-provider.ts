import type { Server } from "node:http";
import Provider from "oidc-provider";

/**
 * A real OpenID Provider (the certified `oidc-provider` package) for the SSO browser tests, on the issuer
 * URL that playwright.config.ts gives the dashboard (port + 50). Its development login form accepts any
 * login name; the account's email claim is that login, verified. The dashboard is its one client.
 */
export async function startOidcProvider(opts: {
  port: number;
  dashboardUrl: string;
  clientId: string;
  clientSecret: string;
}): Promise<{ close(): Promise<void> }> {
  const issuer = `http://localhost:${opts.port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: opts.clientId,
        client_secret: opts.clientSecret,
        redirect_uris: [`${opts.dashboardUrl}/api/auth/callback/oidc`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // next-auth reads the user from the ID token: put the requested claims there too.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    findAccount: async (_ctx, id) => ({
      accountId: id,
      claims: async () => ({ sub: id, email: id, email_verified: true, name: `SSO ${id}` }),
    }),
  });
  const server: Server = provider.listen(opts.port);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", () => resolve());
    server.once("error", reject);
  });
  return { close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
