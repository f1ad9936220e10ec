import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/domain/outcome";
import { errorResponse, knownError } from "./error-response";

const request = new Request("http://localhost/api/somewhere?x=1");

describe("knownError / errorResponse (every route wrapper's error answer)", () => {
  it("passes an AppError through as it is", () => {
    const refusal = new AppError("not_found", "No such proposal.", { field: "id" });
    expect(knownError(refusal, request, "test route failed")).toBe(refusal);
  });

  it("turns anything else into internal_error with only a reference: never the error's own message", () => {
    const e = knownError(new TypeError('relation "Secret" does not exist'), request, "test route failed");
    expect(e.code).toBe("internal_error");
    expect(e.message).toMatch(/^Something went wrong on our side \(reference [0-9a-f-]{36}\)\.$/);
    expect(e.message).not.toContain("Secret");
    expect(e.details).toBeUndefined();
    const traced = knownError("boom", request, "orders api failed", { label: "trace", id: "api-123" });
    expect(traced.message).toBe("Something went wrong on our side (trace api-123).");
  });

  it("answers the common shape with the code's status and no-store", async () => {
    const response = errorResponse(new AppError("not_found", "No such proposal.", { field: "id" }));
    expect(response.status).toBe(404);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ code: "not_found", error: { message: "No such proposal.", field: "id" } });
    expect(errorResponse(new AppError("internal_error", "x")).status).toBe(500);
  });
});
