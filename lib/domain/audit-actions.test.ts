import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { auditActionGroups, auditActions, auditCodeKey, auditOutcomes } from "./audit-actions";
import { errorCodes, successCodes } from "./outcome";

type Messages = {
  audit: { actions: Record<string, string>; outcomes: Record<string, string>; actionGroups: Record<string, string> };
};
const messages = (lang: string) =>
  JSON.parse(readFileSync(join(__dirname, "..", "..", "messages", `${lang}.json`), "utf8")) as Messages;

describe("audit action and outcome labels", () => {
  // Every action's plain name, kinds' included, and the codes written anywhere: lib/actions/audit-picker.test.ts.
  for (const lang of ["en", "es"]) {
    it(`every action group and outcome has a plain name in ${lang}`, () => {
      const m = messages(lang).audit;
      expect(Object.keys(auditActionGroups).filter((g) => !m.actionGroups[g])).toEqual([]);
      expect(auditOutcomes.filter((o) => !m.outcomes[auditCodeKey(o)])).toEqual([]);
    });
  }

  it("rejections are findable by a plain name", () => {
    expect(auditActions).toContain("proposal:reject");
    expect(messages("en").audit.actions[auditCodeKey("proposal:reject")]).toBe("Proposal rejected");
    expect(messages("es").audit.actions[auditCodeKey("proposal:reject")]).toBe("Propuesta rechazada");
  });

  it("lists every outcome code of lib/domain/outcome.ts, and each code once", () => {
    for (const code of [...successCodes, ...errorCodes]) expect(auditOutcomes).toContain(code);
    expect(new Set(auditActions).size).toBe(auditActions.length);
    expect(new Set(auditActions.map(auditCodeKey)).size).toBe(auditActions.length);
  });

  it("lists the action codes the use cases write (read from the source)", () => {
    const root = join(__dirname, "..", "..");
    const written = [
      ["lib/server/proposals/reject-proposal.ts", "proposal:reject"],
      ["lib/server/proposals/approve-proposal.ts", "proposal:approve"],
      ["lib/server/proposals/expire-proposals.ts", "proposal:expire"],
      ["lib/server/auth/record-sign-in.ts", "auth:sign_in"],
      ["lib/server/audit/search-audit-events.ts", "audit:search"],
      ["lib/server/executions/execute-refund.ts", "execution:send"],
    ] as const;
    for (const [file, code] of written) {
      expect(readFileSync(join(root, file), "utf8")).toContain(`"${code}"`);
      expect(auditActions).toContain(code);
    }
  });
});
