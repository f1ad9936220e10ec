// The one place that drives Prisma's schema engine as WebAssembly (@prisma/schema-engine-wasm), so
// that new migrations can be generated without the native engine download (see TOOLCHAIN.md).
// Work-arounds, each for a pitfall met with adapter-pg 7.10:
// - the .wasm is instantiated by hand (Node 20 cannot import .wasm without a flag);
// - PRISMA_WASM_PANIC_REGISTRY must exist or engine panics surface as "reading 'set_message'";
// - catalog columns of PostgreSQL's internal "char" type (OID 18) are relabelled as text, which the
//   adapter can read;
// - scripts run whole, not split on ";" (see wholeScripts);
// - the shadow database is made from discrete connection fields and dropped after its pool closed.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import { withPgClient } from "../../lib/server/db/pg-client";
import { readMigrations, MIGRATIONS_DIR } from "./migrations";

type Engine = {
  diff(params: unknown): Promise<{ exitCode: number; stdout: string | null }>;
};

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

const CHARACTER_COLUMN_TYPE = 6; // ColumnTypeEnum.Character of @prisma/driver-adapter-utils
// Which columns of a result (keyed by its rows array, which the adapter passes through) were "char".
const charColumns = new WeakMap<object, number[]>();

function relabelChar<T>(result: T): T {
  const r = result as { fields?: { dataTypeID: number }[]; rows?: object } | undefined;
  const found: number[] = [];
  (r?.fields ?? []).forEach((f, i) => {
    if (f.dataTypeID === PG_CHAR_OID) {
      f.dataTypeID = PG_TEXT_OID; // the adapter can read it as text…
      found.push(i);
    }
  });
  if (found.length && r?.rows) charColumns.set(r.rows, found);
  return result;
}

class CharSafePool extends pg.Pool {
  constructor(config: pg.PoolConfig) {
    super(config);
    // Every pooled client (also those Pool.query checks out internally) relabels "char" columns.
    this.on("connect", (client) => {
      const query = client.query.bind(client);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's overloaded query() cannot be re-declared without any
      (client as any).query = (...args: any[]) => {
        const last = args[args.length - 1];
        if (typeof last === "function") {
          args[args.length - 1] = (err: unknown, res: unknown) => last(err, relabelChar(res));
        }
        const out = (query as (...a: unknown[]) => unknown)(...args);
        return out instanceof Promise ? out.then(relabelChar) : out;
      };
    });
  }
}

function connectionFields(url: string): pg.PoolConfig {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: u.pathname.slice(1),
  };
}

// adapter-pg's executeScript splits the script on every ";" (also inside comments and $$ function
// bodies), so migrations with functions or triggers fail on the shadow database. PostgreSQL's simple
// query protocol runs a multi-statement script as it is, which is what the native engine does.
type RawResult = { columnTypes: number[]; rows: object };
type PatchableAdapter = {
  executeScript(script: string): Promise<void>;
  queryRaw(q: unknown): Promise<RawResult>;
  underlyingDriver(): unknown;
};
function wholeScripts<T>(adapter: T): T {
  const a = adapter as unknown as PatchableAdapter;
  const pool = a.underlyingDriver() as pg.Pool;
  a.executeScript = async (script: string) => {
    await pool.query(script);
  };
  // …and the engine, which reads catalog "char" columns as characters, is told so.
  const queryRaw = a.queryRaw.bind(a);
  a.queryRaw = async (q: unknown) => {
    const result = await queryRaw(q);
    for (const i of charColumns.get(result.rows) ?? []) result.columnTypes[i] = CHARACTER_COLUMN_TYPE;
    return result;
  };
  return adapter;
}

function adapterFactory(url: string) {
  const config = connectionFields(url);
  const base = new PrismaPg(new CharSafePool(config), { disposeExternalPool: true });
  return {
    provider: base.provider,
    adapterName: base.adapterName,
    connect: async () => wholeScripts(await base.connect()),
    connectToShadowDb: async () => {
      const database = `prisma_shadow_${randomUUID().replace(/-/g, "")}`;
      await withPgClient(url, (admin) => admin.query(`CREATE DATABASE "${database}"`));
      const adapter = wholeScripts(
        await new PrismaPg(new CharSafePool({ ...config, database }), { disposeExternalPool: true }).connect(),
      );
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose();
        await withPgClient(url, (cleanup) => cleanup.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
      };
      return adapter;
    },
  };
}

async function loadEngineModule() {
  const require = createRequire(import.meta.url);
  // The package exports no ./package.json; its entry file sits beside the .wasm.
  const pkgDir = dirname(require.resolve("@prisma/schema-engine-wasm"));
  const bg = await import("@prisma/schema-engine-wasm/schema_engine_bg");
  const bytes = readFileSync(join(pkgDir, "schema_engine_bg.wasm"));
  const { instance } = await WebAssembly.instantiate(bytes, {
    "./schema_engine_bg.js": bg as unknown as WebAssembly.ModuleImports,
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- wasm-bindgen exports carry no types
  const exports = instance.exports as any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- internal wasm-bindgen hook, not in the package's types
  (bg as any).__wbg_set_wasm(exports);
  exports.__wbindgen_start?.();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- global the engine reads on panic (TOOLCHAIN.md)
  (globalThis as any).PRISMA_WASM_PANIC_REGISTRY ??= {
    set_message: (m: string) => console.error("schema engine panic:", m),
  };
  return bg;
}

export async function openSchemaEngine(databaseUrl: string, schemaPath: string): Promise<Engine> {
  const bg = await loadEngineModule();
  const schema = readFileSync(schemaPath, "utf8");
  const factory = bindMigrationAwareSqlAdapterFactory(adapterFactory(databaseUrl) as never);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- SchemaEngine.new is untyped wasm glue; Engine types its result
  return (await (bg as any).SchemaEngine.new(
    { datamodels: [[schemaPath, schema]] },
    (log: string) => void log,
    factory,
  )) as Engine;
}

/** SQL that takes a database from the state after all existing migrations to the schema file. */
export async function diffMigrationsToSchema(databaseUrl: string, schemaPath: string): Promise<string> {
  const engine = await openSchemaEngine(databaseUrl, schemaPath);
  const migrations = readMigrations();
  const result = await engine.diff({
    from: {
      tag: "migrations",
      baseDir: MIGRATIONS_DIR,
      lockfile: { path: "migration_lock.toml", content: 'provider = "postgresql"\n' },
      shadowDbInitScript: "",
      migrationDirectories: migrations.map((m) => ({
        path: m.name,
        migrationFile: { path: "migration.sql", content: { tag: "ok", value: m.sql } },
      })),
    },
    to: { tag: "schemaDatamodel", files: [{ path: schemaPath, content: readFileSync(schemaPath, "utf8") }] },
    script: true,
    exitCode: null,
    filters: { externalTables: [], externalEnums: [] },
  });
  return result.stdout ?? "";
}
