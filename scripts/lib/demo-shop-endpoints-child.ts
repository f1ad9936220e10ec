// Run by scripts/start.ts in demo mode (a child with the app's environment and an IPC channel), before the shops
// start: saves each demo tenant's action endpoint (demo-shop-endpoints.ts) and hands the secrets back over IPC —
// never on stdout, which start.ts relays to its log. argv[2]: JSON `[{tenant, url}]`, the shops' base URLs.
import { db } from "../../lib/server/db/client";
import { saveDemoActionEndpoints } from "./demo-shop-endpoints";

const shops = JSON.parse(process.argv[2] ?? "[]") as { tenant: string; url: string }[];
let code = 0;
try {
  if (!process.send) throw new Error("run by scripts/start.ts only (it needs the IPC channel)");
  const saved = await saveDemoActionEndpoints(shops);
  for (const s of saved) console.log(`demo: ${s.tenant}'s action endpoint ${s.url} (${s.change})`);
  await new Promise<void>((resolve, reject) =>
    process.send!({ secrets: Object.fromEntries(saved.map((s) => [s.tenant, s.secret])) }, undefined, {}, (e) =>
      e ? reject(e) : resolve(),
    ),
  );
} catch (error) {
  console.error(`demo: saving the action endpoints failed: ${error instanceof Error ? error.message : String(error)}`);
  code = 1;
} finally {
  await db().$disconnect();
}
process.exit(code);
