// An unknown /api/… path answers a JSON 404 in the common {code, error, traceId} shape (not Next's HTML).
import { describe, expect, it } from "vitest";
import * as unknown from "@/app/api/[...unknown]/route";

describe("unknown /api paths", () => {
  it("answer 404 JSON with code not_found and a trace id, for every method", async () => {
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"] as const) {
      const res = unknown[method](
        new Request("http://localhost/api/nope/deeper", { method, headers: { "x-trace-id": "trace-404-test" } }),
      );
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(await res.json()).toEqual({
        code: "not_found",
        error: { message: "There is no API route at this path." },
        traceId: "trace-404-test",
      });
    }
    const generated = unknown.GET(new Request("http://localhost/api/x"));
    expect(((await generated.json()) as { traceId: string }).traceId).toMatch(/^[0-9a-f]{32}$/);
  });
});
