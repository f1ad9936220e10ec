import { describe, expect, it } from "vitest";
import {
  assertCan,
  can,
  landingPath,
  permissionList,
  roles,
  visibleNavigation,
  type Permission,
  type Role,
} from "./permissions";

// The table written out as a matrix, so a change to who may do what shows up as a test diff.
const expected: Record<Permission, Role[]> = {
  "queue:read": ["ops", "reviewer", "admin"],
  "inbox:read": ["ops", "reviewer", "admin"],
  "proposal:read": ["ops", "reviewer", "admin"],
  "proposal:decide": ["reviewer"],
  "proposal:reprepare": ["ops", "reviewer"],
  "proposal:comment": ["ops", "reviewer", "admin"],
  "executions:read": ["ops", "admin"],
  "executions:reconcile": ["ops"],
  "executions:payout": ["ops"],
  "audit:read": ["auditor", "admin"],
  "audit:trace": ["ops", "reviewer", "auditor", "admin"],
  "admin:manage": ["admin"],
};

describe("permission table", () => {
  it("lists every permission once", () => {
    expect([...permissionList].sort()).toEqual(Object.keys(expected).sort());
  });

  for (const permission of Object.keys(expected) as Permission[]) {
    for (const role of roles) {
      const allowed = expected[permission].includes(role);
      it(`${role} ${allowed ? "may" : "may not"} ${permission}`, () => {
        expect(can([role], permission)).toBe(allowed);
      });
    }
  }

  it("auditors can never approve, whatever else they read", () => {
    expect(can(["auditor"], "proposal:decide")).toBe(false);
    expect(() => assertCan(["auditor"], "proposal:decide")).toThrow(
      expect.objectContaining({ code: "permission_denied" }),
    );
  });

  it("combined roles add up", () => {
    expect(can(["auditor", "reviewer"], "audit:read")).toBe(true);
    expect(can(["auditor", "reviewer"], "proposal:decide")).toBe(true);
  });

  it("no roles, no access", () => {
    for (const p of permissionList) expect(can([], p)).toBe(false);
  });

  it("navigation follows the table", () => {
    expect(visibleNavigation(["auditor"]).map((n) => n.key)).toEqual(["audit"]);
    expect(visibleNavigation(["ops"]).map((n) => n.key)).toEqual(["inbox", "queue", "decided", "executions"]);
    expect(visibleNavigation(["reviewer"]).map((n) => n.key)).toEqual(["inbox", "queue", "decided"]);
    expect(visibleNavigation(["admin"]).map((n) => n.key)).toEqual([
      "inbox",
      "queue",
      "decided",
      "executions",
      "audit",
      "admin",
    ]);
  });
});

describe("landing by role", () => {
  it("each role lands on its own work", () => {
    expect(landingPath(["reviewer"])).toBe("/queue");
    expect(landingPath(["ops"])).toBe("/executions");
    expect(landingPath(["auditor"])).toBe("/audit");
    expect(landingPath(["admin"])).toBe("/admin");
  });
  it("with several roles, deciding wins, then ops, then audit, then admin", () => {
    expect(landingPath(["admin", "reviewer"])).toBe("/queue");
    expect(landingPath(["admin", "ops"])).toBe("/executions");
    expect(landingPath(["auditor", "admin"])).toBe("/audit");
    expect(landingPath(["ops", "auditor", "reviewer"])).toBe("/queue");
  });
  it("every landing page is one the person may open, and no role means no page", () => {
    for (const role of roles) expect(visibleNavigation([role]).map((n) => n.href)).toContain(landingPath([role]));
    expect(landingPath([])).toBe("/forbidden");
  });
});
