// The audit search answer is typed by lib/server/audit (another area); the client validates it with
// auditSearchPageDto. These assignments make the compiler (tsc, next build) fail when the two drift apart.
import { describe, expect, it } from "vitest";
import type { AuditSearchPage } from "@/lib/server/audit/search-audit-events";
import { auditSearchPageDto, type AuditSearchPageDto } from "./audit-dto";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShape: Same<AuditSearchPage, AuditSearchPageDto> = true;

describe("DTO contracts", () => {
  it("the audit search page type and its DTO schema are the same shape", () => {
    expect(sameShape).toBe(true);
    const page: AuditSearchPage = {
      events: [
        {
          id: "e1",
          leafIndex: 1,
          occurredAt: "2026-11-30T10:00:00.000Z",
          traceId: "t",
          actorType: "staff",
          actorId: null,
          authMethod: null,
          action: "a",
          outcome: "ok",
          proposalId: null,
          proposalHash: null,
          model: null,
          promptVersion: null,
          channel: null,
          endUser: null,
          data: { x: 1 },
          fingerprints: [],
          hash: "h",
        },
      ],
      nextCursor: null,
    };
    expect(auditSearchPageDto.parse(page)).toEqual(page);
  });
});
