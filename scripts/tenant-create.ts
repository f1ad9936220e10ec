// npm run tenant:create -- --slug acme --name "Acme" --currency EUR --locale en --time-zone Europe/Berlin
//                          --admin-email ada@acme.example [--admin-name "Ada"]
// An operator's first tenant without SQL (docs/operations.md): the tenant, its policy version 1 (with the safe
// defaults of a new tenant), its first admin and that admin's one-time setup link (24 h), audited. On
// DATABASE_URL (migrated first). Refused, before anything is touched, on the demo's database — no DATABASE_URL
// (the embedded demo database) or one holding demo tenants: a tenant of one's own there stops `npm start` from
// loading the demo, and `npm run demo:reset` would delete it. Prints one JSON object with the setup link — the
// only time it is shown — and exits 0; a refusal (existing slug or email, a bad value, the demo database) is
// printed on stderr with the reason and exits 1. The production secrets must be set (the audit event is
// fingerprinted with AUDIT_HMAC_KEY); APP_URL / NEXTAUTH_URL give the link its origin, else the local app on PORT.
import { parseArgs } from "node:util";
import nextEnv from "@next/env";
import { productionSecretProblems } from "../lib/config/demo-secrets";
import { prepareDatabase } from "./lib/database";
import { demoTenantSlugs } from "./lib/demo-tenants";

nextEnv.loadEnvConfig(process.cwd(), false, { info: () => undefined, error: console.error });

const fail = (message: string): never => {
  process.stderr.write(`tenant:create: ${message}\n`);
  process.exit(1);
};

let values: Record<string, string | undefined>;
try {
  ({ values } = parseArgs({
    options: {
      slug: { type: "string" },
      name: { type: "string" },
      currency: { type: "string" },
      locale: { type: "string" },
      "time-zone": { type: "string" },
      "admin-email": { type: "string" },
      "admin-name": { type: "string" },
    },
    strict: true,
    allowPositionals: false,
  }) as { values: Record<string, string | undefined> });
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const missing = ["slug", "name", "currency", "locale", "time-zone", "admin-email"].filter((k) => !values![k]);
if (missing.length) fail(`missing ${missing.map((k) => `--${k}`).join(", ")}`);

// A real tenant never goes into the demo's database (docs/operations.md "From nothing to a first tenant").
const productionPath =
  "For a tenant of your own: create a PostgreSQL database, set DATABASE_URL to it and the production secrets (.env.example), run `npm run db:migrate`, then this command again (docs/operations.md).";
if (!process.env.DATABASE_URL)
  fail(
    `refusing: DATABASE_URL is not set, so this would write into the embedded demo database — \`npm start\` then refuses to load the demo beside your tenant, and \`npm run demo:reset\` deletes it. ${productionPath}`,
  );
const demoTenants = await demoTenantSlugs(process.env.DATABASE_URL!).catch(() => [] as string[]); // not migrated yet: none
if (demoTenants.length)
  fail(
    `refusing: this database holds the demo's tenants (${demoTenants.join(", ")}) — \`npm start\` refuses to serve it in production and \`npm run demo:reset\` would delete your tenant. ${productionPath}`,
  );
process.env.APP_MODE ??= "production";
if (process.env.APP_MODE !== "demo") {
  const problems = productionSecretProblems(process.env);
  if (problems.length) fail(`refusing to run in production mode: ${problems.join("; ")}`);
}
// The link's origin: APP_URL, else NEXTAUTH_URL, else the app `npm start` serves on PORT (lib/server/env.ts).
if (!process.env.APP_URL && !process.env.NEXTAUTH_URL)
  process.stderr.write(
    `tenant:create: APP_URL and NEXTAUTH_URL are not set: the setup link points at http://localhost:${process.env.PORT || 3000} (PORT); set APP_URL to the dashboard's public origin.\n`,
  );

const database = await prepareDatabase({ demo: false }).catch((error: unknown) =>
  fail(`database: ${error instanceof Error ? error.message : String(error)}`),
);
process.env.DATABASE_URL = database.url;
let code = 0;
try {
  // Imported after DATABASE_URL is known: the data layer reads the environment when it loads.
  const { createTenant } = await import("../lib/server/tenants/create-tenant");
  const created = await createTenant({
    slug: values!.slug,
    name: values!.name,
    currency: values!.currency,
    locale: values!.locale,
    timeZone: values!["time-zone"],
    adminEmail: values!["admin-email"],
    adminName: values!["admin-name"],
  });
  process.stdout.write(
    `${JSON.stringify({ tenant: { id: created.tenantId, slug: created.slug }, admin: { id: created.adminId, email: values!["admin-email"]!.trim().toLowerCase() }, setupUrl: created.setupUrl, expiresAt: created.expiresAt.toISOString() })}\n`,
  );
} catch (error) {
  const { AppError } = await import("../lib/domain/outcome");
  process.stderr.write(
    `tenant:create: ${error instanceof AppError ? error.message : `failed: ${error instanceof Error ? error.message : String(error)}`}\n`,
  );
  code = 1;
} finally {
  const { db } = await import("../lib/server/db/client");
  await db()
    .$disconnect()
    .catch(() => undefined);
  await database.embedded?.stop().catch(() => undefined);
}
process.exit(code);
