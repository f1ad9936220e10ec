import { readFileSync, readdirSync } from "node:fs";
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
  for (const lang of ["en", "es"]) {
    it(`every listed action, group and outcome has a plain name in ${lang}`, () => {
      const m = messages(lang).audit;
      expect(auditActions.filter((a) => !m.actions[auditCodeKey(a)])).toEqual([]);
      expect(Object.keys(auditActionGroups).filter((g) => !m.actionGroups[g])).toEqual([]);
      expect(auditOutcomes.filter((o) => !m.outcomes[auditCodeKey(o)])).toEqual([]);
      // No label for a code nobody lists (a renamed action would leave one behind).
      expect(Object.keys(m.actions).filter((k) => !auditActions.some((a) => auditCodeKey(a) === k))).toEqual([]);
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

  it("lists every action code the use cases write (a new action gets a plain name and a place in the picker)", () => {
    const root = join(__dirname, "..", "..");
    const files = ["lib/server", "app"].flatMap((dir) =>
      (readdirSync(join(root, dir), { recursive: true }) as string[])
        .filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".test.ts"))
        .map((f) => join(root, dir, f)),
    );
    const written = new Set<string>();
    for (const f of files) {
      for (const m of readFileSync(f, "utf8").matchAll(/\baction(?:: | = )"([a-z_-]+:[a-z_]+)"/g)) written.add(m[1]!);
    }
    expect(written.size).toBeGreaterThan(20);
    expect([...written].filter((a) => !(auditActions as readonly string[]).includes(a)).sort()).toEqual([]);
  });
});
