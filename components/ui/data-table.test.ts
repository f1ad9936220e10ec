// DataTable renders on the server as well as in the browser: checked here through react-dom/server.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { DataTable, DataTableEmpty, type Column } from "./data-table";

type Row = { id: string; name: string; amount: number };
const rows: Row[] = [
  { id: "a", name: "Ada", amount: 5 },
  { id: "b", name: "Bo", amount: 12 },
];
const columns: Column<Row>[] = [
  { id: "name", header: "Name", cell: (r) => r.name },
  { id: "amount", header: "Amount", cell: (r) => String(r.amount), align: "end", className: "whitespace-nowrap" },
];

const html = (props: Partial<Parameters<typeof DataTable<Row>>[0]> = {}) =>
  renderToStaticMarkup(
    createElement(DataTable<Row>, { label: "People", columns, rows, rowKey: (r) => r.id, ...props }),
  );

describe("DataTable", () => {
  it("renders a header per column and a cell per row and column, in order, with row attributes", () => {
    const out = html({ rowAttributes: (r) => ({ "data-person-id": r.id }) });
    expect(out).toContain('aria-label="People"');
    // The sideways-scrolling container is a named group a keyboard user can focus (axe scrollable-region-focusable).
    expect(out).toMatch(/<div data-slot="table-container"[^>]*role="group"[^>]*aria-label="People"[^>]*tabindex="0"/i);
    expect([...out.matchAll(/<th[^>]*scope="col"[^>]*>([^<]*)</g)].map((m) => m[1])).toEqual(["Name", "Amount"]);
    expect([...out.matchAll(/<td[^>]*>([^<]*)</g)].map((m) => m[1])).toEqual(["Ada", "5", "Bo", "12"]);
    expect([...out.matchAll(/data-person-id="(\w)"/g)].map((m) => m[1])).toEqual(["a", "b"]);
  });

  it("leaves its defaults to the stylesheet: the markup carries data-slot and only the callers' classes", () => {
    // The defaults (DataTable's cells over TableCell's) are rules in components/ui/table.css under `@layer components`,
    // so a column's utilities win by the cascade; e2e/class-override.spec.ts checks that in a browser.
    const out = html();
    expect(out).toMatch(/^<div data-slot="data-table" class=""><div data-slot="table-container"/);
    const cells = [...out.matchAll(/<td data-slot="table-cell" class="([^"]*)"/g)].map((m) => m[1]);
    expect(cells).toEqual(["", "whitespace-nowrap text-right", "", "whitespace-nowrap text-right"]);
    const heads = [...out.matchAll(/<th data-slot="table-head"[^>]*class="([^"]*)"/g)].map((m) => m[1]);
    expect(heads).toEqual(["", "text-right"]);
  });

  it("shows the empty state instead of the table when there are no rows", () => {
    const out = html({ rows: [], empty: createElement("p", { "data-empty": "" }, "Nobody") });
    expect(out).toBe('<p data-empty="">Nobody</p>');
  });

  it("with a card renderer: the table is for wide screens, phones get one card per row", () => {
    const out = html({ card: (r) => r.name, cardAttributes: (r) => ({ "data-card": r.id }) });
    expect(out).toMatch(/<div data-slot="data-table" class="hidden md:block"><div data-slot="table-container"/);
    expect(out).toMatch(/<ul class="[^"]*md:hidden[^"]*" aria-label="People">/);
    expect([...out.matchAll(/<li data-card="(\w)"[^>]*>(\w+)<\/li>/g)].map((m) => [m[1], m[2]])).toEqual([
      ["a", "Ada"],
      ["b", "Bo"],
    ]);
  });

  it("without a card renderer the table shows on every screen", () => {
    expect(html()).not.toContain("md:hidden");
    expect(html()).not.toContain("hidden md:block");
  });
});

describe("DataTable row keys", () => {
  // React names a list child without a usable key in a console error; a key per row keeps it quiet.
  const keyWarnings = (render: () => void) => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      render();
      return error.mock.calls.filter((call) => String(call[0]).includes("key")).length;
    } finally {
      error.mockRestore();
    }
  };
  const cards = { card: (r: Row) => r.name };

  it("keys rows by their id when no rowKey is given", () => {
    const render = () =>
      renderToStaticMarkup(createElement(DataTable<Row>, { label: "People", columns, rows, ...cards }));
    expect(keyWarnings(render)).toBe(0);
  });

  it("(the check above can fail: rows without an id and no rowKey draw React's warning)", () => {
    const noIds = rows.map(({ name, amount }) => ({ name, amount })) as unknown as Row[];
    const render = () =>
      renderToStaticMarkup(createElement(DataTable<Row>, { label: "People", columns, rows: noIds, ...cards }));
    expect(keyWarnings(render)).toBeGreaterThan(0);
  });
});

describe("DataTableEmpty", () => {
  it("is the lists' one empty box, carrying the attributes the specs find it by", () => {
    const out = renderToStaticMarkup(
      createElement(DataTableEmpty, { "data-list-state": "empty", children: "Nothing" }),
    );
    expect(out).toBe(
      '<div data-list-state="empty" class="rounded-xl border bg-card p-6 text-center text-muted-foreground">Nothing</div>',
    );
  });
});
