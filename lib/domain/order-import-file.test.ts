import { describe, expect, it } from "vitest";
import { checkCsvHeader, formatOf, orderCsvHeader, parseImportLine, splitCsvLine } from "./order-import-file";

describe("order import file lines", () => {
  it("splits CSV with quotes, doubled quotes and empty fields; refuses a quote left open", () => {
    expect(splitCsvLine('a,"b, c","say ""hi""",,d')).toEqual(["a", "b, c", 'say "hi"', "", "d"]);
    expect(splitCsvLine('a,"open')).toBeNull();
  });
  it("accepts exactly the documented header (BOM allowed), refuses a reordered one", () => {
    expect(checkCsvHeader("\uFEFF" + orderCsvHeader.join(","))).toBeNull();
    const swapped = [...orderCsvHeader];
    [swapped[0], swapped[1]] = [swapped[1]!, swapped[0]!];
    expect(checkCsvHeader(swapped.join(","))).toMatch(/must be exactly/);
    expect(checkCsvHeader(orderCsvHeader.slice(1).join(","))).toMatch(/must be exactly/);
  });
  it("maps a CSV row to the API body with one payment; numbers only when whole digits", () => {
    const row = "ORD-1,cus_1,a@b.example,Ann,EUR,500,paid,2026-11-30T10:00:00Z,manual,pay_1,card,500,Ann,Visa •• 1";
    const parsed = parseImportLine("csv", row);
    expect(parsed).toEqual({
      ok: true,
      value: {
        number: "ORD-1",
        customer: { id: "cus_1", email: "a@b.example", name: "Ann" },
        currency: "EUR",
        total_minor: 500,
        status: "paid",
        placed_at: "2026-11-30T10:00:00Z",
        payments: [
          {
            provider: "manual",
            reference: "pay_1",
            method: "card",
            captured_minor: 500,
            holder: "Ann",
            display: "Visa •• 1",
          },
        ],
      },
    });
    const bad = parseImportLine("csv", row.replace(",500,paid", ",5.00,paid"));
    expect(bad.ok && (bad.value as { total_minor: unknown }).total_minor).toBe("5.00");
    expect(parseImportLine("csv", "a,b")).toMatchObject({ ok: false, message: "2 columns" });
  });
  it("NDJSON: JSON or a problem at $; format by extension", () => {
    expect(parseImportLine("ndjson", '{"number":"1"}')).toEqual({ ok: true, value: { number: "1" } });
    expect(parseImportLine("ndjson", "{nope")).toMatchObject({ ok: false, path: "$", message: "not JSON" });
    expect(formatOf("x.CSV")).toBe("csv");
    expect(formatOf("x.ndjson")).toBe("ndjson");
  });
});
