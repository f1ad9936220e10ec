// Refusals of the access rules at their edges (found unchecked by mutation testing, npm run test:mutation):
// the role refusal's shape, the HTTP status of each error code, and where a post-sign-in redirect may go.
import { describe, expect, it } from "vitest";
import { AppError, errorCodes, httpStatusFor, isAppError } from "./outcome";
import { assertCan, isRole, isRoleRefusal } from "./permissions";

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("AppError", () => {
  it("carries its code, safe message and details under its own name", () => {
    const e = new AppError("not_found", "No such order.", { order_id: "X" });
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("AppError");
    expect(e.message).toBe("No such order.");
    expect(e.code).toBe("not_found");
    expect(e.details).toEqual({ order_id: "X" });
    expect(new AppError("expired", "x").details).toBeUndefined();
    expect(isAppError(e)).toBe(true);
    expect(isAppError(new Error("x"))).toBe(false);
    expect(isAppError({ code: "not_found", message: "x" })).toBe(false);
  });
  it("maps every error code to its HTTP status", () => {
    const status = Object.fromEntries(errorCodes.map((c) => [c, httpStatusFor(c)]));
    expect(status).toEqual({
      unknown_tool: 404,
      invalid_arguments: 400,
      permission_denied: 403,
      not_found: 404,
      expired: 409,
      invalidated: 409,
      rejected: 409,
      limit_exceeded: 429,
      temporarily_unavailable: 503,
      claimed_by_other: 409,
      internal_error: 500,
      unauthenticated: 401,
    });
  });
});

describe("role refusals", () => {
  it("assertCan's refusal names the role rule and the permission", () => {
    const e = thrown(() => assertCan(["auditor"], "proposal:decide"));
    expect(e).toBeInstanceOf(AppError);
    expect(e).toMatchObject({
      code: "permission_denied",
      message: "Your role does not allow this.",
      details: { reason: "role", permission: "proposal:decide" },
    });
    expect(isRoleRefusal(e)).toBe(true);
  });
  it("only a permission_denied AppError with reason role is a role refusal", () => {
    expect(isRoleRefusal(new AppError("permission_denied", "x", { reason: "tenant" }))).toBe(false);
    expect(isRoleRefusal(new AppError("permission_denied", "x"))).toBe(false);
    expect(isRoleRefusal(new AppError("not_found", "x", { reason: "role" }))).toBe(false);
    expect(isRoleRefusal({ code: "permission_denied", details: { reason: "role" } })).toBe(false);
    expect(isRoleRefusal(null)).toBe(false);
  });
  it("knows exactly the four roles", () => {
    for (const r of ["ops", "reviewer", "auditor", "admin"]) expect(isRole(r)).toBe(true);
    for (const r of ["Admin", "admins", "", null, undefined, ["admin"]]) expect(isRole(r)).toBe(false);
  });
});
