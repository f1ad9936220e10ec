// The Actions pages' client parts rendered through react-dom/server in both locales, with every message required
// (a missing one throws): the list with each kind of row, and the form filled from the contract's example.
import { createElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { NextIntlClientProvider } from "next-intl";
import { describe, expect, it, vi } from "vitest";
import en from "@/messages/en.json";
import es from "@/messages/es.json";
import { declarationKeys, type DeclarationRow, type DeclarationSpec } from "./_components/declaration";
import { DeclarationList } from "./_components/declaration-list";
import { DeclarationForm } from "./new/_components/declaration-form";
import { draftOf, emptyDraft } from "./new/_components/draft";

// The admin request hook refreshes the page through the App Router, which is not mounted here.
vi.mock("next/navigation", () => ({ useRouter: () => ({ refresh: () => {} }) }));

const spec: DeclarationSpec = {
  name: "issue_store_credit",
  description: "Issue store credit for a damaged or late order.",
  input: [
    { name: "order_id", type: "string", description: "The order number", pattern: "^[A-Z0-9-]{3,40}$", maxLength: 40 },
    { name: "months", type: "integer", description: "Validity", minimum: 1, maximum: 12 },
  ],
  derive: { path: "/store-credit/quote?order={order_id}" },
  fields: [
    { key: "customer", pointer: "/customer/name", label: { en: "Customer", es: "Cliente" }, clear: false },
    { key: "amount", pointer: "/credit/amount_minor", label: { en: "Amount", es: "Importe" }, clear: true },
    { key: "currency", pointer: "/credit/currency", label: { en: "Currency", es: "Moneda" }, clear: true },
  ],
  sentence: {
    en: "Issue {amount} {currency} of store credit to {customer}",
    es: "Emitir {amount} {currency} a {customer}",
  },
  policy: { approvals: 2, stepUp: true, money: { amountKey: "amount", currencyKey: "currency" } },
  execute: { action: "issue_store_credit" },
};
const row = (over: Partial<DeclarationRow>): DeclarationRow => ({
  id: "d1",
  name: spec.name,
  version: 1,
  status: "active",
  spec,
  proposedBy: { name: "Alex Admin", email: "admin@shop-us.test" },
  proposedAt: "2026-12-01T10:00:00Z",
  decidedBy: null,
  decidedAt: null,
  mine: false,
  approvalRefusal: null,
  ...over,
});

function render(node: ReactNode, locale: "en" | "es", rows: DeclarationRow[] = []) {
  const client = new QueryClient();
  client.setQueryData(declarationKeys.all, rows);
  return renderToStaticMarkup(
    createElement(NextIntlClientProvider, {
      locale,
      messages: locale === "en" ? en : es,
      timeZone: "UTC",
      onError: (e) => {
        throw e;
      },
      children: createElement(QueryClientProvider, { client }, node),
    }),
  );
}

describe("Admin → Actions", () => {
  const rows = [
    row({ id: "p-other", version: 3, status: "pending" }),
    row({ id: "p-mine", name: "pause_subscription", status: "pending", mine: true }),
    row({ id: "p-refused", name: "reset_points", status: "pending", approvalRefusal: "invited_by_proposer" }),
    row({ id: "a1", version: 2 }),
  ];

  it("lists every version; a pending one shows its whole spec, Approve/Reject for another admin, Cancel for its proposer", () => {
    const html = render(createElement(DeclarationList), "en", rows);
    expect(html).toContain('data-declaration="a1" data-status="active"');
    const panel = (id: string) => html.slice(html.indexOf(`<article id="declaration-${id}"`)).split("</article>")[0]!;
    const other = panel("p-other");
    expect(other).toContain("issue_store_credit, version 3");
    expect(other).toContain("/store-credit/quote?order={order_id}");
    expect(other).toContain("Only a fingerprint in the audit"); // customer
    expect(other).toContain("Kept in clear in the audit"); // amount
    expect(other).toContain("Issue {amount} {currency} of store credit to {customer}");
    expect(other).toContain("2 reviewer approvals");
    expect(other).toContain("Pattern ^[A-Z0-9-]{3,40}$, at most 40 characters");
    expect(other).toContain("From 1 to 12");
    expect(other).toMatch(/>Approve<\/button>/);
    expect(other).toMatch(/>Reject<\/button>/);
    const mine = panel("p-mine");
    expect(mine).toContain("You proposed this version");
    expect(mine).toMatch(/>Cancel<\/button>/);
    expect(mine).not.toMatch(/>Approve</);
    const refused = panel("p-refused");
    expect(refused).toContain("The proposer invited you: your approval does not count.");
    expect(refused).not.toMatch(/>Approve</);
    expect(html).toMatch(/aria-label="Retire issue_store_credit"[^>]*>Retire<\/button>/);
    expect(html).toContain('href="/admin/actions/new?from=issue_store_credit"');
  });

  it("renders in Spanish with Spanish words", () => {
    const html = render(createElement(DeclarationList), "es", rows);
    expect(html).toContain("Esperando a un segundo administrador");
    expect(html).toMatch(/>Aprobar<\/button>/);
    expect(html).toContain("Solo una huella en la auditoría");
  });

  it("the form labels every box and offers the derived keys as the money fields", () => {
    for (const locale of ["en", "es"] as const) {
      const html = render(createElement(DeclarationForm, { initial: draftOf(spec) }), locale);
      const ids = [...html.matchAll(/<(?:input|select|textarea)[^>]* id="([^"]+)"/g)].map((m) => m[1]!);
      expect(ids.length).toBeGreaterThan(20);
      for (const id of ids) expect(html, id).toContain(`for="${id}"`);
    }
    const html = render(createElement(DeclarationForm, { initial: draftOf(spec) }), "en");
    for (const label of ["Tool name", "Derive path", "Sentence (Spanish)", "Action sent to the shop", "Propose action"])
      expect(html).toContain(label);
    expect(html).toMatch(/>Add input field</);
    expect(html).toMatch(/>Remove derived field 3</);
    const amount = html.slice(html.indexOf('id="declaration-amount-key"')).split("</select>")[0]!;
    expect(amount).toContain('<option value="amount" selected="">amount</option>');
    expect(amount).toContain('<option value="customer">customer</option>');
    // An empty form has one row of each and nothing to remove.
    const empty = render(createElement(DeclarationForm, { initial: emptyDraft() }), "en");
    expect(empty).not.toMatch(/>Remove input field/);
  });

  it("the Spanish messages have every English key, and are Spanish (not the English copied)", () => {
    const flat = (o: object, at = ""): [string, string][] =>
      Object.entries(o).flatMap(([k, v]) =>
        typeof v === "string" ? [[`${at}${k}`, v] as [string, string]] : flat(v as object, `${at}${k}.`),
      );
    const enAll = flat(en.adminActions);
    const esAll = new Map(flat(es.adminActions));
    expect([...esAll.keys()].sort()).toEqual(enAll.map(([k]) => k).sort());
    // Only placeholders-only strings ("v{version}") may read the same in both.
    const same = enAll.filter(([k, v]) => esAll.get(k) === v).map(([k]) => k);
    expect(same).toEqual(["versionN"]);
  });
});
