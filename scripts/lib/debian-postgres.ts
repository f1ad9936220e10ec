// A throw-away cluster of Debian's PostgreSQL (not the embedded one), for tests that must prove the product on
// another server version (docs/operations.md "PostgreSQL"): `pg_createcluster` on a free port, a password for
// the postgres superuser, `pg_dropcluster` after. Needs root and Debian's postgresql package.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { findFreePort } from "./embedded-postgres";

export type DebianCluster = { version: string; name: string; port: number; url: string; drop: () => void };

/** Why a Debian cluster cannot be made here, or null when it can. */
export function debianPostgresUnavailable(): string | null {
  if (typeof process.getuid !== "function" || process.getuid() !== 0)
    return "not running as root (pg_createcluster needs root)";
  if (!existsSync("/usr/bin/pg_createcluster"))
    return "Debian's postgresql package is not installed (no pg_createcluster)";
  if (!existsSync("/usr/lib/postgresql") || readdirSync("/usr/lib/postgresql").length === 0)
    return "no PostgreSQL server version under /usr/lib/postgresql";
  return null;
}

function run(command: string, args: string[]): void {
  const res = spawnSync(command, args, { encoding: "utf8" });
  if (res.status !== 0)
    throw new Error(`${command} ${args.join(" ")} failed: ${(res.stderr || res.stdout || "").trim()}`);
}

export async function createDebianCluster(prefix = "itest"): Promise<DebianCluster> {
  const reason = debianPostgresUnavailable();
  if (reason) throw new Error(reason);
  const version = readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a))[0]!;
  const name = `${prefix}_${process.pid}_${randomBytes(3).toString("hex")}`;
  const port = await findFreePort();
  const password = randomBytes(18).toString("base64url");
  run("pg_createcluster", [
    version,
    name,
    "-p",
    String(port),
    "--start",
    "--",
    "--auth-host=scram-sha-256",
    "--auth-local=peer",
  ]);
  const drop = () => void spawnSync("pg_dropcluster", ["--stop", version, name], { encoding: "utf8" });
  try {
    run("su", ["postgres", "-c", `psql -q -p ${port} -c "ALTER USER postgres PASSWORD '${password}'"`]);
    // A throw-away test server, like the embedded one in tests: no durability needed, many connections.
    for (const setting of [
      "max_connections = 200",
      "fsync = off",
      "synchronous_commit = off",
      "full_page_writes = off",
    ]) {
      run("su", ["postgres", "-c", `psql -q -p ${port} -c "ALTER SYSTEM SET ${setting}"`]);
    }
    run("pg_ctlcluster", [version, name, "restart"]);
  } catch (error) {
    drop();
    throw error;
  }
  return { version, name, port, url: `postgresql://postgres:${password}@127.0.0.1:${port}/postgres`, drop };
}
