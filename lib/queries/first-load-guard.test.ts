// Guards the /queue JavaScript budget (bench:ui measures it; this keeps its big levers from silently coming
// back): walking the static imports of the queue page's client islands and the shell's client islands —
// `import type` and `import()` (code-split) excluded — reaches neither zod, nor next-auth/react, nor cmdk,
// nor (since the queue and the shell's icons are rendered on the server) TanStack Table, React Query, nuqs,
// tailwind-merge, Radix or lucide.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = resolve(__dirname, "../..");
// Every "use client" module the queue page renders, and the root providers.
const entries = [
  "app/(dashboard)/queue/_components/queue-toolbar.tsx",
  "app/(dashboard)/queue/_components/queue-keys.tsx",
  "app/(dashboard)/queue/_components/new-proposals-announcer.tsx",
  "app/(dashboard)/queue/_components/bulk-reject.tsx",
  "components/domain/money.tsx",
  "components/domain/countdown.tsx",
  "components/ui/date-time.tsx",
  "components/providers.tsx",
  "components/layout/tab-title.tsx",
  "components/layout/command-menu.tsx",
  "components/layout/mobile-nav.tsx",
  "components/layout/main-nav.tsx",
  "components/layout/inbox-badge.tsx",
  "components/layout/sign-out-button.tsx",
  "components/theme/theme-switch.tsx",
];

function resolveLocal(spec: string, from: string): string | null {
  const base = spec.startsWith("@/")
    ? join(root, spec.slice(2))
    : spec.startsWith(".")
      ? resolve(dirname(from), spec)
      : null;
  if (!base) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")]) {
    if (existsSync(candidate) && !candidate.endsWith("/") && /\.(ts|tsx)$/.test(candidate)) return candidate;
  }
  return null;
}

/** Runtime (static) import specifiers of a file: type-only imports and exports are left out. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const specs: string[] = [];
  for (const node of source.statements) {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      if (clause?.isTypeOnly) continue;
      const named =
        clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : null;
      if (clause && !clause.name && named && named.length > 0 && named.every((e) => e.isTypeOnly)) continue;
      specs.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) {
      specs.push((node.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return specs;
}

/** Every package reached through static imports from the entries, with one path that reaches it. */
function reachablePackages(from: string[] = entries): Map<string, string[]> {
  const seen = new Set<string>();
  const packages = new Map<string, string[]>();
  const queue: [string, string[]][] = from.map((e) => [join(root, e), [e]]);
  while (queue.length) {
    const [file, path] = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of runtimeImports(file)) {
      const local = resolveLocal(spec, file);
      if (local) queue.push([local, [...path, local.slice(root.length + 1)]]);
      else if (!spec.startsWith(".") && !spec.startsWith("@/") && !packages.has(spec))
        packages.set(spec, [...path, spec]);
    }
  }
  return packages;
}

describe("first-load JavaScript of /queue", () => {
  const packages = reachablePackages();

  it("walks a real graph (the islands reach next-intl, next/navigation and clsx)", () => {
    expect(packages.has("next-intl")).toBe(true);
    expect(packages.has("next/navigation")).toBe(true);
    expect(packages.has("clsx")).toBe(true);
  });

  it("loads no table library, React Query, nuqs, tailwind-merge, Radix, icon library or next/dynamic up front (rows and icons rendered on the server, React.lazy)", () => {
    const banned = [...packages.entries()].filter(([name]) =>
      /^(@tanstack\/|nuqs($|\/)|tailwind-merge$|@radix-ui\/|lucide-react$|next\/dynamic$)/.test(name),
    );
    expect(banned.map(([, path]) => path.join(" → "))).toEqual([]);
  });

  it("the queue's client islands are the ones listed here (a new island must be walked too)", () => {
    // The server modules that render the queue; each client module they import is an island.
    const servers = [
      "app/(dashboard)/queue/page.tsx",
      "app/(dashboard)/queue/_components/queue-table.tsx",
      "app/(dashboard)/queue/_components/queue-cells.tsx",
      "components/ui/data-table.tsx",
    ];
    const islands = servers.flatMap((server) => {
      const text = readFileSync(join(root, server), "utf8");
      expect(text.startsWith('"use client"')).toBe(false);
      return [...text.matchAll(/from "(\.\/[^"]+|@\/components\/[^"]+)"/g)]
        .map((m) => resolveLocal(m[1]!, join(root, server)))
        .filter((f): f is string => !!f && readFileSync(f, "utf8").startsWith('"use client"'))
        .map((f) => f.slice(root.length + 1));
    });
    expect(islands.length).toBeGreaterThan(3);
    expect(islands.filter((f) => !entries.includes(f))).toEqual([]);
  });

  it("loads no zod, next-auth/react or cmdk up front (DTO schemas, the palette load on demand)", () => {
    const banned = [...packages.entries()].filter(([name]) => /^(zod($|\/)|next-auth\/react$|cmdk$)/.test(name));
    expect(banned.map(([, path]) => path.join(" → "))).toEqual([]);
  });

  it("the server-rendered queue and shell use no lucide-react (its Icon is a client component: it would ship)", () => {
    const server = reachablePackages(["app/(dashboard)/layout.tsx", "app/(dashboard)/queue/page.tsx"]);
    expect(server.has("next-intl/server")).toBe(true); // the walk reaches the server modules
    expect(server.get("lucide-react")?.join(" → ")).toBeUndefined();
  });
});

// The ≤ 200 KiB pages that keep their data live in React Query (bench:ui, PAGE_BUDGETS): the proposal page and
// the executions page. What put them over is kept off their static imports: zod (their live reads are typed,
// actions load their schemas lazily), the decision dialogs' Radix dialog and the passkey client (loaded on
// first open), sonner (loaded with the first action that toasts, components/ui/toast.tsx).
describe("first-load JavaScript of /proposals/:id and /executions", () => {
  const views = {
    proposal: "app/(dashboard)/proposals/[id]/_components/proposal-view.tsx",
    executions: "app/(dashboard)/executions/_components/executions-view.tsx",
  };

  it("walks a real graph (the views reach React Query and their own action code)", () => {
    for (const view of Object.values(views)) expect(reachablePackages([view]).has("@tanstack/react-query")).toBe(true);
    const proposal = reachablePackages([views.proposal]);
    expect(proposal.has("next/navigation")).toBe(true); // via the decision panel's use-decision.ts
  });

  it.each(Object.entries(views))(
    "%s loads no zod, Radix dialog, @simplewebauthn/browser or sonner up front",
    (_, view) => {
      const banned = [...reachablePackages([view]).entries()].filter(([name]) =>
        /^(zod($|\/)|@radix-ui\/react-dialog$|@simplewebauthn\/browser$|sonner$)/.test(name),
      );
      expect(banned.map(([, path]) => path.join(" → "))).toEqual([]);
    },
  );
});
