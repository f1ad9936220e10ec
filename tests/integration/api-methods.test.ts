// Every API error is JSON, the 405 too: Next.js answers a method a route file does not export with an empty
// 405, so every app/api/**/route.ts that serves no GET exports one (lib/server/http/method-not-allowed.ts) that
// answers 405 in the common {code, error, traceId} shape, naming exactly the methods the file does serve.
// The test walks the route files on disk, so a new POST-only route without it fails here.
import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "..", "..");
const apiDir = join(root, "app", "api");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? routeFiles(join(dir, e.name)) : e.name === "route.ts" ? [join(dir, e.name)] : [],
  );
}

type Handler = ((request: Request, context?: unknown) => Response | Promise<Response>) & { allows?: string[] };

describe("methods an API route does not serve", () => {
  const files = routeFiles(apiDir).sort();

  it("finds the route files (the walk itself works)", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.map((f) => relative(apiDir, f).split(sep).join("/"))).toContain("agent/tool-calls/route.ts");
  });

  it("every route file answers GET: its own handler, or a JSON 405 naming exactly the methods it serves", async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const file of files) {
      const name = relative(apiDir, file).split(sep).join("/");
      const mod = (await import(file)) as Partial<Record<(typeof METHODS)[number], Handler>>;
      const get = mod.GET;
      if (typeof get !== "function") {
        problems.push(`${name}: no GET (Next.js would answer an empty 405)`);
        continue;
      }
      if (!get.allows) continue; // a route that serves GET itself
      const served = METHODS.filter((m) => m !== "GET" && typeof mod[m] === "function");
      if ([...get.allows].sort().join() !== [...served].sort().join())
        problems.push(`${name}: the 405 names ${get.allows.join(",")} but the file serves ${served.join(",")}`);
      const res = await get(
        new Request(`http://localhost/api/${name}`, { headers: { "x-trace-id": "trace-405-test" } }),
      );
      expect(res.status, name).toBe(405);
      expect(res.headers.get("content-type"), name).toContain("application/json");
      expect(res.headers.get("allow"), name).toBe(get.allows.join(", "));
      expect(await res.json(), name).toEqual({
        code: "not_found",
        error: {
          message: `This API route does not answer GET; it accepts ${get.allows.join(", ")}.`,
          allow: get.allows,
        },
        traceId: "trace-405-test",
      });
      checked++;
    }
    expect(problems).toEqual([]);
    // The POST-only agent route and the staff decision routes are among them.
    expect(checked).toBeGreaterThan(25);
  });

  it("the agent's tool-call route: GET is a JSON 405 pointing at POST", async () => {
    const { GET } = (await import("@/app/api/agent/tool-calls/route")) as unknown as { GET: Handler };
    const res = await GET(new Request("http://localhost/api/agent/tool-calls"));
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    const body = (await res.json()) as { traceId: string; error: { message: string } };
    expect(body.error.message).toBe("This API route does not answer GET; it accepts POST.");
    expect(body.traceId).toMatch(/^[0-9a-f]{32}$/);
  });
});
