// npm run demo:reset — start the demo over: deletes the embedded PostgreSQL data kept between runs
// (.data/pg, or EMBEDDED_PG_DIR), so the next `npm start` migrates and loads a fresh demo.
// Refuses while a server still uses that data (its postmaster.pid names a live process), and never
// touches an external DATABASE_URL.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const dataDir = process.env.EMBEDDED_PG_DIR ?? join(process.cwd(), ".data", "pg");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

if (process.env.DATABASE_URL && process.env.APP_MODE !== "demo") {
  console.error("demo:reset only resets the embedded demo database; DATABASE_URL is set, so nothing was deleted.");
  process.exit(1);
}
if (!existsSync(dataDir)) {
  console.log(`No demo data at ${dataDir}: the next \`npm start\` creates a fresh demo.`);
  process.exit(0);
}
const pidFile = join(dataDir, "postmaster.pid");
const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8").split("\n")[0]) : NaN;
if (Number.isInteger(pid) && pid > 0 && alive(pid)) {
  console.error(
    `The demo database is running (PostgreSQL pid ${pid}). Stop \`npm start\` (Ctrl-C) first, then run demo:reset again.`,
  );
  process.exit(1);
}
rmSync(dataDir, { recursive: true, force: true });
console.log(`Deleted ${dataDir}. The next \`npm start\` migrates and loads a fresh demo.`);
