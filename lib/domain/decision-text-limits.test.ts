// The forms stop where the server's schemas do: each limit in decision-text-limits.ts is the exact boundary
// of its zod schema (at the limit accepted, one over refused; counted after trimming, as the schemas do).
import { describe, expect, it } from "vitest";
import { addProposalCommentInput, bulkRejectProposalsInput, rejectProposalInput } from "@/lib/schemas/proposals";
import { COMMENT_MAX, CUSTOMER_MESSAGE_MAX, CUSTOMER_MESSAGE_MIN, INTERNAL_NOTE_MAX } from "./decision-text-limits";

const proposalId = "0b8f2a52-9d7e-4c1a-8f3e-2a6b1c9d4e70";
const hash = "a".repeat(64);
const text = (n: number) => "x".repeat(n);

const reject = (fields: Record<string, unknown>) =>
  rejectProposalInput.safeParse({ proposalId, hash, customerMessage: "Not eligible", ...fields }).success;
const bulk = (fields: Record<string, unknown>) =>
  bulkRejectProposalsInput.safeParse({ proposals: [{ proposalId, hash }], customerMessage: "Not eligible", ...fields })
    .success;
const comment = (body: string) => addProposalCommentInput.safeParse({ proposalId, body }).success;

describe("the reviewer's text limits are the schemas' boundaries", () => {
  it("the customer's message: CUSTOMER_MESSAGE_MIN..CUSTOMER_MESSAGE_MAX characters, single and bulk", () => {
    for (const parse of [reject, bulk]) {
      expect(parse({ customerMessage: text(CUSTOMER_MESSAGE_MIN) })).toBe(true);
      expect(parse({ customerMessage: text(CUSTOMER_MESSAGE_MIN - 1) })).toBe(false);
      expect(parse({ customerMessage: text(CUSTOMER_MESSAGE_MAX) })).toBe(true);
      expect(parse({ customerMessage: text(CUSTOMER_MESSAGE_MAX + 1) })).toBe(false);
      expect(parse({ customerMessage: ` ${text(CUSTOMER_MESSAGE_MAX)} ` })).toBe(true); // trimmed first
    }
    // The former field name has the same limits.
    expect(reject({ customerMessage: undefined, reason: text(CUSTOMER_MESSAGE_MAX) })).toBe(true);
    expect(reject({ customerMessage: undefined, reason: text(CUSTOMER_MESSAGE_MAX + 1) })).toBe(false);
  });

  it("the internal note: at most INTERNAL_NOTE_MAX characters, single and bulk", () => {
    for (const parse of [reject, bulk]) {
      expect(parse({ internalNote: text(INTERNAL_NOTE_MAX) })).toBe(true);
      expect(parse({ internalNote: text(INTERNAL_NOTE_MAX + 1) })).toBe(false);
    }
  });

  it("a comment: 1..COMMENT_MAX characters", () => {
    expect(comment(text(COMMENT_MAX))).toBe(true);
    expect(comment(text(COMMENT_MAX + 1))).toBe(false);
    expect(comment(`\n${text(COMMENT_MAX)}\n`)).toBe(true);
    expect(comment(" ")).toBe(false);
  });
});
