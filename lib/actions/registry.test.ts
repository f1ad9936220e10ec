// The registry and the seam's layout (docs/action-kinds.md): every kind's tools reach the catalogue and the
// gateway's handlers, a tool name two kinds declare is refused, kinds never import each other, and the core
// imports no kind folder (only the registry may list them).
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { declareKindTools, mergeKindTools } from "./kind";
import { actionKindNames, actionKinds, kindTools, previewToolNames, previewToolsOf } from "./registry";
import { kindBehaviourOf, kindBehaviours, kindToolHandlers } from "./registry.server";
import { createChannelInput, issueAgentKeyInput } from "@/lib/schemas/admin";
import { isOfferedToolName, offeredAmong, offeredToolNames, toolCatalog, toolNames } from "@/lib/schemas/tools";
import { toolHandlers } from "@/lib/server/agent/tool-handlers";
import { auditPickerActions } from "./audit-picker";

const root = join(__dirname, "..", "..");
const tool = (title: string) => ({
  title,
  annotations: { readOnlyHint: true, openWorldHint: false },
  description: title,
  input: z.strictObject({}),
});

describe("the action kinds' registry", () => {
  it("every registered kind's tools are in the tool catalogue and have a handler on the gateway, and nothing else", () => {
    expect(actionKinds.map((k) => k.kind)).toContain("refund");
    const declared = actionKinds.flatMap((k) => Object.keys(k.tools));
    expect(declared).toEqual(expect.arrayContaining(["prepare_refund", "get_refund_status"]));
    for (const name of declared) {
      expect(toolNames).toContain(name);
      expect(toolCatalog[name as keyof typeof toolCatalog]).toBe(kindTools[name as keyof typeof kindTools]);
      expect(toolHandlers[name as keyof typeof toolHandlers]).toBe(
        kindToolHandlers[name as keyof typeof kindToolHandlers],
      );
    }
    expect(Object.keys(kindToolHandlers).sort()).toEqual([...declared].sort());
    // The gateway's own tools stay its own, in the catalogue's published order.
    expect(toolNames).toEqual([
      "lookup_order",
      "prepare_refund",
      "get_refund_status",
      "prepare_address_change",
      "prepare_order_cancellation",
      "prepare_contact_change",
      "prepare_replacement_order",
      "prepare_bulk_message",
      "get_action_status",
      "create_support_ticket",
    ]);
  });

  it("every tool's calls can be picked in the audit search (lib/actions/audit-picker.ts; plain names: its test)", () => {
    expect(toolNames.filter((n) => !auditPickerActions.includes(`tool:${n}`))).toEqual([]);
  });

  it("a kind in preview runs on the gateway but is not offered to channels or keys; none is in preview today", () => {
    const ready = declareKindTools({ kind: "kind_ready", tools: { prepare_ready: tool("r") } });
    const early = declareKindTools({
      kind: "kind_early",
      tools: { prepare_early: tool("e"), get_early: tool("g") },
      preview: "its pages are not built yet",
    });
    const preview = previewToolsOf([ready, early]);
    expect([...preview]).toEqual(["prepare_early", "get_early"]);
    expect(offeredAmong(["lookup_order", "prepare_ready", "prepare_early", "get_early"], preview)).toEqual([
      "lookup_order",
      "prepare_ready",
    ]);
    // The registry: the address change left preview once every staff page presented it (docs/action-kinds.md).
    expect([...previewToolNames]).toEqual([]);
    expect(offeredToolNames).toEqual(toolNames);
    expect(isOfferedToolName("prepare_address_change")).toBe(true);
    expect(isOfferedToolName("prepare_anything")).toBe(false);
    const channel = { slug: "web", name: "Web", stepUpPassword: "x" };
    expect(createChannelInput.safeParse({ ...channel, allowedTools: ["prepare_address_change"] }).success).toBe(true);
    expect(createChannelInput.safeParse({ ...channel, allowedTools: ["prepare_anything"] }).success).toBe(false);
    expect(
      issueAgentKeyInput.safeParse({ channel: "web", label: "k", tools: ["prepare_address_change"] }).success,
    ).toBe(true);
  });

  it("refuses a tool name two kinds declare, a kind registered twice, and names that are not lower snake case", () => {
    const a = declareKindTools({ kind: "kind_a", tools: { prepare_a: tool("a") } });
    const b = declareKindTools({ kind: "kind_b", tools: { prepare_a: tool("b") } });
    expect(() => mergeKindTools([a, b])).toThrow(/prepare_a is declared by two action kinds/);
    expect(() => mergeKindTools([a, a])).toThrow(/registered twice/);
    expect(() => declareKindTools({ kind: "Kind-C", tools: {} })).toThrow(/action kind name/);
    expect(() => declareKindTools({ kind: "kind_c", tools: { "prepare c": tool("c") } })).toThrow(/tool name/);
    expect(Object.keys(mergeKindTools([a, declareKindTools({ kind: "kind_c", tools: { get_c: tool("c") } })]))).toEqual(
      ["prepare_a", "get_c"],
    );
  });
});

function files(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return files(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}
const imports = (path: string) =>
  [...readFileSync(join(root, path), "utf8").matchAll(/from\s+["']([^"']+)["']/g)].map((m) => m[1]!);
const kindFolders = readdirSync(join(root, "lib/actions")).filter((n) =>
  statSync(join(root, "lib/actions", n)).isDirectory(),
);
/** The kind folder an import points at, if any (relative imports resolved from the importing file's folder). */
function kindOf(from: string, spec: string): string | null {
  const target = spec.startsWith("@/") ? spec.slice(2) : spec.startsWith(".") ? join(from, "..", spec) : null;
  const m = target?.match(/^lib\/actions\/([^/]+)\//);
  return m && kindFolders.includes(m[1]!) ? m[1]! : null;
}

describe("the seam's layout", () => {
  it("every registered kind has its behaviour (revalidate…), and only those; an unknown kind has none", () => {
    expect(Object.keys(kindBehaviours).sort()).toEqual([...actionKindNames].sort());
    for (const kind of actionKindNames) expect(typeof kindBehaviourOf(kind)?.revalidate).toBe("function");
    expect(kindBehaviourOf("kind_of_a_newer_release")).toBeNull();
    expect(kindBehaviourOf("toString")).toBeNull();
  });

  it("a kind imports the core, never another kind", () => {
    expect(kindFolders).toContain("refund");
    const crossing = kindFolders.flatMap((kind) =>
      files(`lib/actions/${kind}`).flatMap((f) =>
        imports(f)
          .map((spec) => [spec, kindOf(f, spec)] as const)
          .filter(([, k]) => k !== null && k !== kind)
          .map(([spec]) => `${f} → ${spec}`),
      ),
    );
    expect(crossing).toEqual([]);
  });

  it("the core imports no kind folder: only the registry lists them", () => {
    const registry = ["lib/actions/registry.ts", "lib/actions/registry.server.ts"];
    const core = ["app", "components", "lib", "scripts"]
      .flatMap(files)
      .filter((f) => !registry.includes(f) && !kindFolders.some((k) => f.startsWith(`lib/actions/${k}/`)));
    expect(core.length).toBeGreaterThan(300);
    const reaching = core.flatMap((f) =>
      imports(f)
        .filter((spec) => kindOf(f, spec) !== null)
        .map((spec) => `${f} → ${spec}`),
    );
    expect(reaching).toEqual([]);
  });
});
