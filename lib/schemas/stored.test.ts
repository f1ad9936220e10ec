// The inbound schemas whose values reach a column refuse what PostgreSQL cannot hold (stored.ts): NUL and lone
// surrogates in text, int4 overflow, years outside 1–9999 — each at its own path, each with a valid twin that
// passes (so the refusal is the value's). The Orders API's own 70 cases run against the database
// (tests/integration/orders-api.test.ts).
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  addWitnessInput,
  createChannelInput,
  inviteStaffInput,
  issueAgentKeyInput,
  listStaffInput,
  proposePolicyInput,
  renamePasskeyInput,
  setDecisionWebhookInput,
} from "./admin";
import { auditSearchInput } from "./audit";
import { issueIntegrationKeyInput } from "./orders-api";
import { verifyPasskeyRegistrationInput } from "./passkeys";
import {
  addProposalCommentInput,
  decidedFilterInput,
  editProposalAmountInput,
  queueFilterInput,
  rejectProposalInput,
} from "./proposals";
import { INT4_MAX, isStorableInstant, isStorableText } from "./stored";
import { createTenantInput, updateTenantSettingsInput } from "./tenant";
import { createSupportTicketInput } from "./tools";

const NUL = "a\u0000b";
const HIGH = "ab\uD800";
const LOW = "\uDC00ab";
const id = "0b7d6f7e-3c0a-4c59-9d59-2f1b1c1f0a01";
const hash = "a".repeat(64);
const registration = {
  id: "cred",
  rawId: "cred",
  type: "public-key",
  response: { clientDataJSON: "x", attestationObject: "x" },
  clientExtensionResults: {},
};

/** [schema, a valid input, the field, a value for it that must pass] */
const textFields: [string, z.ZodType, Record<string, unknown>, string, string][] = [
  ["inviteStaff.name", inviteStaffInput, { email: "a@b.example", roles: ["reviewer"] }, "name", "Ana"],
  ["createChannel.name", createChannelInput, { slug: "web", allowedTools: ["lookup_order"] }, "name", "Web"],
  ["issueAgentKey.label", issueAgentKeyInput, { channel: "web" }, "label", "Bot"],
  ["listStaff.q", listStaffInput, {}, "q", "ana"],
  ["renamePasskey.name", renamePasskeyInput, {}, "name", "Laptop"],
  ["setDecisionWebhook.url", setDecisionWebhookInput, {}, "url", "https://hooks.example.com/d"],
  ["addWitness.name", addWitnessInput, { vkey: "w+1+A", url: "https://w.example" }, "name", "w"],
  ["addWitness.vkey", addWitnessInput, { name: "w", url: "https://w.example" }, "vkey", "w+1+A"],
  ["addWitness.url", addWitnessInput, { name: "w", vkey: "w+1+A" }, "url", "https://w.example"],
  ["issueIntegrationKey.label", issueIntegrationKeyInput, { scopes: ["orders:write"] }, "label", "Shop"],
  ["passkeyRegistration.name", verifyPasskeyRegistrationInput, { response: registration }, "name", "Key"],
  [
    "createTenant.name",
    createTenantInput,
    { slug: "shop", currency: "EUR", locale: "en", timeZone: "UTC", adminEmail: "a@b.example" },
    "name",
    "Shop",
  ],
  [
    "createTenant.adminName",
    createTenantInput,
    { slug: "shop", name: "Shop", currency: "EUR", locale: "en", timeZone: "UTC", adminEmail: "a@b.example" },
    "adminName",
    "Ana",
  ],
  ["updateTenantSettings.name", updateTenantSettingsInput, {}, "name", "Shop"],
  ["reject.customerMessage", rejectProposalInput, { proposalId: id, hash }, "customerMessage", "Not refundable."],
  [
    "reject.internalNote",
    rejectProposalInput,
    { proposalId: id, hash, customerMessage: "Not refundable." },
    "internalNote",
    "fraud",
  ],
  ["comment.body", addProposalCommentInput, { proposalId: id }, "body", "Looks fine"],
  ["queue.channel", queueFilterInput, {}, "channel", "web"],
  ["queue.cursor", queueFilterInput, {}, "cursor", "abc"],
  ["decided.q", decidedFilterInput, {}, "q", "ORD-1"],
  ["audit.actor", auditSearchInput, {}, "actor", "ana@example.com"],
  ["audit.traceId", auditSearchInput, {}, "traceId", "trace-1"],
  [
    "tool create_support_ticket.summary",
    createSupportTicketInput,
    { category: "billing", priority: "normal" },
    "summary",
    "Where is my refund please",
  ],
];

const pathsOf = (schema: z.ZodType, input: unknown) => {
  const parsed = schema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.path.join("."));
};

describe("text the database can store", () => {
  it("isStorableText: NUL and unpaired surrogates are refused, pairs (emoji) and other text are not", () => {
    for (const bad of [NUL, HIGH, LOW, "\uD800\uD800", "\uDC00\uD800"]) expect(isStorableText(bad)).toBe(false);
    for (const ok of ["", "Ana García", "😀 ok", "\t\n\u0001", "\uD83D\uDE00"]) expect(isStorableText(ok)).toBe(true);
  });

  it.each(textFields)("%s refuses NUL and lone surrogates at its path", (_name, schema, base, field, good) => {
    expect(pathsOf(schema, { ...base, [field]: good })).toEqual([]);
    for (const bad of [NUL, HIGH, LOW])
      expect(pathsOf(schema, { ...base, [field]: `${good}${bad}` }), JSON.stringify(bad)).toContain(field);
  });
});

describe("numbers an int4 column holds", () => {
  it.each([
    [
      "policy dualApprovalThresholdMinor",
      proposePolicyInput,
      (v: number) => ({ values: { dualApprovalThresholdMinor: v } }),
      "values.dualApprovalThresholdMinor",
    ],
    [
      "policy reviewerDailyApprovalLimitMinor",
      proposePolicyInput,
      (v: number) => ({ values: { reviewerDailyApprovalLimitMinor: v } }),
      "values.reviewerDailyApprovalLimitMinor",
    ],
    [
      "edited amount",
      editProposalAmountInput,
      (v: number) => ({ proposalId: id, hash, amountMinor: v }),
      "amountMinor",
    ],
    ["queue minMinor", queueFilterInput, (v: number) => ({ minMinor: v }), "minMinor"],
    ["queue maxMinor", queueFilterInput, (v: number) => ({ maxMinor: v }), "maxMinor"],
  ] as const)("%s: 2^31-1 passes, 2^31 is refused at its path", (_name, schema, input, path) => {
    expect(pathsOf(schema, input(INT4_MAX))).toEqual([]);
    expect(pathsOf(schema, input(INT4_MAX + 1))).toContain(path);
  });
});

describe("instants a timestamp column holds", () => {
  it("isStorableInstant: years 1–9999 in UTC", () => {
    expect(isStorableInstant("0001-01-01T00:00:00Z")).toBe(true);
    expect(isStorableInstant("9999-12-31T23:59:59Z")).toBe(true);
    expect(isStorableInstant("0000-12-31T23:59:59Z")).toBe(false);
    expect(isStorableInstant("0001-01-01T00:30:00+01:00")).toBe(false);
    expect(isStorableInstant("9999-12-31T23:00:00-02:00")).toBe(false);
  });

  it.each([
    ["issueAgentKey.expiresAt", issueAgentKeyInput, { channel: "web", label: "Bot" }, "expiresAt"],
    [
      "issueIntegrationKey.expiresAt",
      issueIntegrationKeyInput,
      { label: "Shop", scopes: ["orders:read"] },
      "expiresAt",
    ],
    ["audit search from", auditSearchInput, {}, "from"],
    ["audit search to", auditSearchInput, {}, "to"],
  ] as const)("%s refuses year 0000", (_name, schema, base, field) => {
    expect(pathsOf(schema, { ...base, [field]: "2030-01-01T00:00:00Z" })).toEqual([]);
    expect(pathsOf(schema, { ...base, [field]: "0000-01-01T00:00:00Z" })).toContain(field);
  });
});
