// The OpenAPI document (lib/schemas/openapi.ts) against a standard OpenAPI 3.1 validator and against the route
// files on disk: every app/api/**/route.ts method is described (with the credential its wrapper demands), and
// the document names no path or method that does not exist.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "./openapi";

const root = join(__dirname, "..", "..");
const apiDir = join(root, "app", "api");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;
/** The one route the document leaves out on purpose: the JSON 404 for every path no route serves. */
const FALLBACK = "/api/{unknown}";

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? routeFiles(join(dir, e.name)) : e.name === "route.ts" ? [join(dir, e.name)] : [],
  );
}

/** app/api/proposals/[id]/route.ts → /api/proposals/{id}; a catch-all [...x] → {x}. */
function openApiPath(file: string): string {
  const segments = relative(join(root, "app"), file).split(sep).slice(0, -1);
  return `/${segments.map((s) => s.replace(/^\[(?:\.\.\.)?([^\]]+)\]$/, "{$1}")).join("/")}`;
}

/**
 * The HTTP methods a route file serves: `export const GET`, `export (async) function POST`, `export { x as GET }`
 * — not a `GET = methodNotAllowed(…)`, the JSON 405 of a route that serves other methods only.
 */
function exportedMethods(source: string): string[] {
  const found = new Set<string>();
  for (const m of source.matchAll(/export\s+(?:const|let|(?:async\s+)?function)\s+([A-Z]+)\b/g)) found.add(m[1]!);
  for (const block of source.matchAll(/export\s*\{([^}]*)\}/g))
    for (const part of block[1]!.split(",")) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop();
      if (name) found.add(name);
    }
  for (const m of source.matchAll(/export\s+const\s+([A-Z]+)\s*=\s*methodNotAllowed\(/g)) found.delete(m[1]!);
  return [...found].filter((n) => (METHODS as readonly string[]).includes(n)).sort();
}

/** The credential a route file's wrapper demands, as the document's security scheme names it. */
function expectedSecurity(source: string): string {
  if (/staffRoute|staffFileRoute/.test(source)) return "staffSession";
  if (/integrationRoute\b/.test(source)) return "integrationKey";
  if (/handleToolCallRequest|handleToolListRequest|handleMcpRequest/.test(source)) return "agentKey";
  if (/serveMetrics/.test(source)) return "metricsToken";
  if (/providerWebhookResponse/.test(source)) return "providerSignature";
  return "public";
}

const doc = buildOpenApiDocument();
type Operation = { security?: Record<string, string[]>[]; responses: Record<string, unknown> };
const paths = doc.paths as Record<string, Record<string, Operation>>;

describe("GET /api/openapi.json document", () => {
  it("is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)", async () => {
    const validator = new Validator();
    const res = await validator.validate(JSON.parse(JSON.stringify(doc)));
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("the validator does refuse a broken document (the check above can fail)", async () => {
    const broken = JSON.parse(JSON.stringify(doc)) as {
      paths: Record<string, Record<string, { responses?: unknown }>>;
    };
    delete broken.paths["/api/agent/tool-calls"]!.post!.responses;
    broken.paths["/api/health"]!.get!.responses = { "200": { content: {} } }; // a response without its required description
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it("describes every route and method under app/api, with the credential its wrapper demands", () => {
    const onDisk = new Map<string, { methods: string[]; security: string }>();
    for (const file of routeFiles(apiDir)) {
      const source = readFileSync(file, "utf8");
      onDisk.set(openApiPath(file), { methods: exportedMethods(source), security: expectedSecurity(source) });
    }
    expect(onDisk.get(FALLBACK)?.methods).toEqual(["DELETE", "GET", "PATCH", "POST", "PUT"]);
    const missing: string[] = [];
    const wrongSecurity: string[] = [];
    for (const [path, { methods, security }] of onDisk) {
      if (path === FALLBACK) continue;
      for (const method of methods) {
        const op = paths[path]?.[method.toLowerCase()];
        if (!op) {
          missing.push(`${method} ${path}`);
          continue;
        }
        const named = op.security?.flatMap((s) => Object.keys(s)) ?? [];
        if ((security === "public" ? named.length !== 0 : !named.includes(security)) || named.length > 1)
          wrongSecurity.push(`${method} ${path}: ${named.join(",") || "none"} (expected ${security})`);
      }
    }
    expect(missing).toEqual([]);
    expect(wrongSecurity).toEqual([]);
    expect(onDisk.size).toBeGreaterThan(50);
  });

  it("names no path or method that no route file serves", () => {
    const onDisk = new Map(routeFiles(apiDir).map((f) => [openApiPath(f), exportedMethods(readFileSync(f, "utf8"))]));
    const extra: string[] = [];
    for (const [path, item] of Object.entries(paths))
      for (const method of Object.keys(item))
        if (!onDisk.get(path)?.includes(method.toUpperCase())) extra.push(`${method.toUpperCase()} ${path}`);
    expect(extra).toEqual([]);
    expect(paths[FALLBACK]).toBeUndefined();
  });

  it("declares the three credentials the API takes: agent key, integration key, staff session", () => {
    const schemes = (
      doc.components as { securitySchemes: Record<string, { type: string; scheme?: string; in?: string }> }
    ).securitySchemes;
    expect(schemes.agentKey).toMatchObject({ type: "http", scheme: "bearer" });
    expect(schemes.integrationKey).toMatchObject({ type: "http", scheme: "bearer" });
    expect(schemes.staffSession).toMatchObject({ type: "apiKey", in: "cookie" });
  });
});

describe("route file reading", () => {
  it("finds each export form and ignores non-methods", () => {
    expect(
      exportedMethods(
        "export const GET = x;\nexport async function POST() {}\nexport function DELETE() {}\nexport const dynamic = 'x';",
      ),
    ).toEqual(["DELETE", "GET", "POST"]);
    expect(exportedMethods("export { authRoute as GET, authRoute as POST };")).toEqual(["GET", "POST"]);
    expect(exportedMethods('export const POST = x;\nexport const GET = methodNotAllowed("POST");')).toEqual(["POST"]);
  });
  it("maps dynamic and catch-all segments to path parameters", () => {
    expect(openApiPath(join(apiDir, "proposals", "[id]", "approve", "route.ts"))).toBe("/api/proposals/{id}/approve");
    expect(openApiPath(join(apiDir, "auth", "[...nextauth]", "route.ts"))).toBe("/api/auth/{nextauth}");
  });
});
