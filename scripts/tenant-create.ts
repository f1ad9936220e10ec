// npm run tenant:create -- --slug acme --name "Acme" --currency EUR --locale en --time-zone Europe/Berlin
//                          --admin-email ada@acme.example [--admin-name "Ada"]
// An operator's first tenant without SQL (docs/operations.md): the tenant, its policy version 1, its first
// admin and that admin's one-time setup link (24 h), audited. On DATABASE_URL (migrated first), or on the
// embedded demo database when DATABASE_URL is unset, like the other scripts. Prints one JSON object with the
// setup link — the only time it is shown — and exits 0; a refusal (existing slug or email, a bad value) is
// printed on stderr with the reason and exits 1. Outside the demo the production secrets must be set (the
// audit event is fingerprinted with AUDIT_HMAC_KEY) and APP_URL / NEXTAUTH_URL give the link its origin.
import { parseArgs } from "node:util";
import nextEnv from "@next/env";
import { productionSecretProblems } from "../lib/config/demo-secrets";
import { prepareDatabase } from "./lib/database";

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

const demo = !process.env.DATABASE_URL;
process.env.APP_MODE ??= demo ? "demo" : "production";
if (process.env.APP_MODE !== "demo") {
  const problems = productionSecretProblems(process.env);
  if (problems.length) fail(`refusing to run in production mode: ${problems.join("; ")}`);
}

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
