// npm run secrets:rotate: re-seals every tenant's provider connection and action endpoint secret under SECRETS_KEY, opening rows sealed
// under SECRETS_KEY_PREVIOUS (docs/operations.md "Keys and rotation"). On DATABASE_URL (the owner's or the
// runtime role's URL). Prints one JSON summary line; exit 0 when every row is under SECRETS_KEY now, 1 when
// some row could not be opened (listed by tenant id; those rows are unchanged), 2 when nothing could be done.
import nextEnv from "@next/env";

nextEnv.loadEnvConfig(process.cwd(), false, {
  info: () => undefined,
  error: (...a: unknown[]) => console.error(a.map(String).join(" ")),
});
if (!process.env.DATABASE_URL) {
  console.error("[secrets:rotate] DATABASE_URL is not set (the demo's key never rotates: it is generated per install)");
  process.exit(2);
}
process.env.APP_MODE ??= "production";

let code = 0;
try {
  const { resealProviderConnections } = await import("../lib/server/secrets/reseal-provider-connections");
  const summary = await resealProviderConnections();
  console.log(JSON.stringify({ resealed: summary.resealed, alreadyCurrent: summary.current, failed: summary.failed }));
  if (summary.failed.length > 0) {
    console.error(
      `[secrets:rotate] ${summary.failed.length} connection(s) did not open and were left unchanged: keep SECRETS_KEY_PREVIOUS until they are fixed`,
    );
    code = 1;
  }
} catch (error) {
  console.error(`[secrets:rotate] stopped: ${error instanceof Error ? error.message : String(error)}`);
  code = 2;
}
process.exit(code);
