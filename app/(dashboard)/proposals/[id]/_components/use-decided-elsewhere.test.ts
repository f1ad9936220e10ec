import { describe, expect, it } from "vitest";
import { whatChanged } from "./use-decided-elsewhere";

const t = (key: string, values?: Record<string, string | number>) =>
  values ? `${key} ${JSON.stringify(values)}` : key;
const at = (iso: string) => iso.slice(11, 16);
const approval = (approver: string, createdAt: string) => ({
  id: approver,
  approver,
  authMethod: "password",
  authTime: createdAt,
  createdAt,
  passkey: false,
});
const base = {
  status: "pending_approval" as const,
  approvals: [] as ReturnType<typeof approval>[],
  requiredApprovals: 1,
  rejection: null,
  viewer: { alreadyApproved: false },
};

describe("a decision made elsewhere, in words (second tab)", () => {
  it("names who approved and when", () => {
    const now = { ...base, status: "approved" as const, approvals: [approval("Lucía", "2026-12-04T10:15:00Z")] };
    expect(whatChanged(base, now, t, at)).toBe('decidedElsewhere.approved {"name":"Lucía","time":"10:15"}');
  });
  it("names a first of two approvals without calling it decided", () => {
    const now = { ...base, requiredApprovals: 2, approvals: [approval("Lucía", "2026-12-04T10:15:00Z")] };
    expect(whatChanged({ ...base, requiredApprovals: 2 }, now, t, at)).toBe(
      'decidedElsewhere.partial {"name":"Lucía","time":"10:15","count":1,"required":2}',
    );
  });
  it("names who rejected and when", () => {
    const now = {
      ...base,
      status: "rejected" as const,
      rejection: { by: "Diego", at: "2026-12-04T11:00:00Z", customerMessage: null, internalNote: null },
    };
    expect(whatChanged(base, now, t, at)).toBe('decidedElsewhere.rejected {"name":"Diego","time":"11:00"}');
  });
  it("tells a second tab of the viewer's own approval elsewhere, and says nothing when nothing changed", () => {
    const mine = {
      ...base,
      status: "approved" as const,
      approvals: [approval("Me", "2026-12-04T10:15:00Z")],
      viewer: { alreadyApproved: true },
    };
    expect(whatChanged(base, mine, t, at)).toBe('decidedElsewhere.yours {"time":"10:15"}');
    expect(whatChanged(base, { ...base }, t, at)).toBeNull();
  });
  it("says when it expired or was invalidated while open", () => {
    expect(whatChanged(base, { ...base, status: "expired" as const }, t, at)).toBe(
      'decidedElsewhere.other {"status":"outcome.expired"}',
    );
  });
});
