import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { auditCodeKey } from "@/lib/domain/audit-actions";
import { auditPickerActions, auditPickerGroups, auditPickerGroupsOf } from "./audit-picker";
import { declareKindTools } from "./kind";
import { actionKinds } from "./registry";

const root = join(__dirname, "..", "..");
const messages = (lang: string) =>
  (
    JSON.parse(readFileSync(join(root, "messages", `${lang}.json`), "utf8")) as {
      audit: { actions: Record<string, string> };
    }
  ).audit.actions;

describe("the audit search's action picker: the core's codes and every registered kind's", () => {
  for (const lang of ["en", "es"]) {
    it(`every code it offers has a plain name in ${lang}, and no name is left for a code nobody offers`, () => {
      const names = messages(lang);
      expect(auditPickerActions.filter((a) => !names[auditCodeKey(a)])).toEqual([]);
      expect(Object.keys(names).filter((k) => !auditPickerActions.some((a) => auditCodeKey(a) === k))).toEqual([]);
    });
  }

  it("offers each code once", () => {
    expect(new Set(auditPickerActions).size).toBe(auditPickerActions.length);
    expect(new Set(auditPickerActions.map(auditCodeKey)).size).toBe(auditPickerActions.length);
  });

  it("a kind's tools and declared events come from its declaration: a new kind touches no core list", () => {
    const kind = declareKindTools({
      kind: "kind_new",
      tools: {
        prepare_new: {
          title: "Prepare",
          annotations: { readOnlyHint: false, openWorldHint: false },
          description: "Prepare",
          input: z.strictObject({}),
        },
      },
      auditEvents: ["execution:new_made"],
    });
    const groups = auditPickerGroupsOf([...actionKinds, kind]);
    expect(groups.agent).toContain("tool:prepare_new");
    expect(groups.execution).toContain("execution:new_made");
    expect(auditPickerGroups.agent).not.toContain("tool:prepare_new");
    for (const k of actionKinds)
      for (const name of Object.keys(k.tools)) expect(auditPickerGroups.agent).toContain(`tool:${name}`);
  });

  it("offers every action code written anywhere (use cases, pages, kinds): a new action gets a name and a place", () => {
    const files = ["lib/server", "lib/actions", "app"].flatMap((dir) =>
      (readdirSync(join(root, dir), { recursive: true }) as string[])
        .filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".test.ts"))
        .map((f) => join(root, dir, f)),
    );
    const written = new Set<string>();
    for (const f of files)
      for (const m of readFileSync(f, "utf8").matchAll(/\baction(?:: | = )"([a-z_-]+:[a-z_]+)"/g)) written.add(m[1]!);
    expect(written.size).toBeGreaterThan(20);
    expect(written).toContain("execution:order_created"); // written by a kind (lib/actions)
    expect([...written].filter((a) => !auditPickerActions.includes(a)).sort()).toEqual([]);
  });
});
