// npm run admin:grant -- --tenant SLUG --email E
// The operator's way out for a tenant with a single admin: grants the admin role to an existing, enabled
// staff member (an admin cannot do this alone: it waits for a second admin, docs/admin-api.md). Runs on
// DATABASE_URL; audited as actor "operator" (system).
import nextEnv from "@next/env";

nextEnv.loadEnvConfig(process.cwd(), false, { info: () => undefined, error: console.error });
const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const tenant = flag("tenant");
const email = flag("email");
if (!tenant || !email) {
  console.error("usage: npm run admin:grant -- --tenant SLUG --email E");
  process.exit(2);
}
if (!process.env.DATABASE_URL) {
  console.error("[admin:grant] DATABASE_URL is not set.");
  process.exit(2);
}
const { grantAdminByOperator } = await import("../lib/server/admin/grant-admin-by-operator");
const { isAppError } = await import("../lib/domain/outcome");
const { db } = await import("../lib/server/db/client");
let code = 0;
try {
  const r = await grantAdminByOperator({ tenantSlug: tenant, email });
  console.log(`[admin:grant] ${email} is now an admin of ${tenant} (roles: ${r.roles.join(", ")}).`);
} catch (error) {
  console.error(
    `[admin:grant] ${isAppError(error) ? error.message : error instanceof Error ? error.message : String(error)}`,
  );
  code = 1;
} finally {
  await db().$disconnect();
}
process.exit(code);
