// The live queue refreshes when the fingerprint of GET /api/proposals differs from the one the server page
// rendered: both sides must serialize a page the same way (the page hashes JSON.stringify, the route
// answers with Response.json), and any change a reviewer can see must change the fingerprint.
import { describe, expect, it } from "vitest";
import type { QueuePage } from "@/lib/schemas/proposal-dto";
import { fingerprint } from "./queue-fingerprint";

const page: QueuePage = {
  rows: [
    {
      id: "6f1d2c1e-0000-4000-8000-000000000001",
      hash: "h1",
      kind: "refund",
      summary: null,
      orderNumber: "ORD-1",
      amountMinor: 4999,
      currency: "USD",
      recipientKind: "card",
      recipientHolder: "Ada",
      recipientDisplay: "Visa •••• 4242",
      reason: "damaged",
      channel: "web_support",
      expiresAt: "2026-11-30T10:00:00.000Z",
      createdAt: "2026-11-30T09:00:00.000Z",
      approvals: 0,
      requiredApprovals: 2,
      flags: { duplicate: false, velocity: false, twoApprovals: true },
      previouslyRejected: null,
      approvedByMe: false,
      claim: null,
    },
  ],
  nextCursor: null,
};

describe("queue fingerprint", () => {
  it("is the same for the server page's JSON.stringify and the route's Response.json body", async () => {
    expect(fingerprint(await Response.json(page).text())).toBe(fingerprint(JSON.stringify(page)));
  });

  it("changes with a new row, an approval, a claim or a removed row", () => {
    const base = fingerprint(JSON.stringify(page));
    const row = page.rows[0]!;
    const variants: QueuePage[] = [
      { ...page, rows: [...page.rows, { ...row, id: "6f1d2c1e-0000-4000-8000-000000000002" }] },
      { ...page, rows: [{ ...row, approvals: 1 }] },
      { ...page, rows: [{ ...row, claim: { by: "Sam", mine: false, until: "2026-11-30T09:10:00.000Z" } }] },
      { ...page, rows: [] },
    ];
    const prints = variants.map((v) => fingerprint(JSON.stringify(v)));
    expect(prints.filter((p) => p === base)).toEqual([]);
    expect(new Set(prints).size).toBe(prints.length);
  });
});
