import { describe, expect, it } from "vitest";
import { inDoubtMail, proposalMail } from "./notification-messages";
import { slackProposalMessage } from "./slack-payload";

const p = {
  id: "b4c1a7e2-0000-4000-8000-000000000001",
  amountMinor: 123_456,
  currency: "JPY",
  recipientDisplay: "Bank <ES91> & co",
  expiresAt: new Date("2026-11-30T12:00:00Z"),
};
const en = { locale: "en-US", timeZone: "America/New_York", baseUrl: "https://approvals.example.com" };

describe("notification messages", () => {
  it("format the amount with the currency's own decimals, the expiry in UTC and the tenant's zone, and link the proposal", () => {
    const mail = proposalMail("new_proposal", p, en);
    // Intl's spaces before AM/PM differ between ICU versions (narrow no-break or plain): \s takes both.
    expect(mail.subject).toMatch(/^Refund to review: ¥123,456 — expires Nov 30, 2026, 12:00\sPM UTC$/);
    expect(mail.text).toMatch(/Expires: Nov 30, 2026, 12:00\sPM UTC \(Nov 30, 07:00\sAM EST\)/);
    expect(mail.text).toContain(`Review the proposal: https://approvals.example.com/proposals/${p.id}`);
    expect(mail.text).toContain("Refund goes to: Bank <ES91> & co");
    expect(proposalMail("expiring", p, en).subject).toMatch(/^Expires soon: refund of ¥123,456/);
  });

  it("escape what we did not write: HTML in the e-mail, mrkdwn in Slack", () => {
    expect(proposalMail("new_proposal", p, en).html).toContain("<td>Bank &lt;ES91&gt; &amp; co</td>");
    const slack = slackProposalMessage("new_proposal", p, en);
    const section = slack.blocks[1];
    expect(section?.type === "section" ? section.fields[1]?.text : null).toBe(
      "*Recipient*\nBank &lt;ES91&gt; &amp; co",
    );
  });

  it("the in-doubt alert names the amount and the provider's last error, and links the executions view", () => {
    const mail = inDoubtMail({ ...p, lastError: "timeout: no answer" }, { ...en, locale: "es-ES" });
    expect(mail.subject).toMatch(/^Ejecución en duda: reembolso de 123\.456\sJPY$/);
    expect(mail.text).toContain("Último error: timeout: no answer");
    expect(mail.text).toContain("https://approvals.example.com/executions");
  });
});

describe("notification messages for a proposal of another kind (no amount)", () => {
  // A stored address-change row as the worker reads it: its params hold the new street and the customer's name.
  // The builders get the row whole here, so a builder that printed anything beyond kind, order and expiry fails.
  const row = {
    id: "b4c1a7e2-0000-4000-8000-000000000002",
    kind: "change_shipping_address",
    orderNumber: "ORD-1001",
    expiresAt: new Date("2026-11-30T12:00:00Z"),
    params: {
      order: { number: "ORD-1001", customerName: "Ana García" },
      after: { name: "Ana García", line1: "Calle de Alcalá 50", city: "Madrid", postalCode: "28014", country: "ES" },
    },
  };
  const personal = ["Alcalá", "Alcala", "Ana García", "28014"];
  const es = { ...en, locale: "es-ES", timeZone: "Europe/Madrid" };
  const all = (m: { subject: string; text: string; html: string }) => `${m.subject}\n${m.text}\n${m.html}`;

  it("names the kind and the order, the expiry and the link, in English — never the street or a name", () => {
    const mail = proposalMail("new_proposal", row, en);
    expect(mail.subject).toMatch(
      /^To review: Shipping address change, order ORD-1001 — expires Nov 30, 2026, 12:00\sPM UTC$/,
    );
    expect(mail.text).toContain("Action: Shipping address change");
    expect(mail.text).toContain("Order: ORD-1001");
    expect(mail.text).toMatch(/Expires: Nov 30, 2026, 12:00\sPM UTC \(Nov 30, 07:00\sAM EST\)/);
    expect(mail.text).toContain(`Review the proposal: https://approvals.example.com/proposals/${row.id}`);
    expect(mail.text).not.toMatch(/refund/i);
    expect(proposalMail("expiring", row, en).subject).toMatch(/^Expires soon: Shipping address change, order ORD-1001/);
    for (const m of [mail, proposalMail("expiring", row, en)])
      for (const value of personal) expect(all(m)).not.toContain(value);
  });

  it("in Spanish, and in Slack: the kind's label in the header, the order as a field, no personal data", () => {
    const mail = proposalMail("new_proposal", row, es);
    expect(mail.subject).toMatch(/^Por revisar: Cambio de dirección de envío, pedido ORD-1001 — caduca 30 nov 2026/);
    expect(mail.text).toContain("Acción: Cambio de dirección de envío");
    expect(mail.text).toContain("Pedido: ORD-1001");
    expect(mail.text).not.toMatch(/reembolso/i);
    for (const value of personal) expect(all(mail)).not.toContain(value);

    const slack = slackProposalMessage("expiring", row, es);
    expect(slack.blocks[0]).toMatchObject({
      text: { text: "Cambio de dirección de envío: la revisión caduca pronto" },
    });
    const section = slack.blocks[1];
    expect(section?.type === "section" ? section.fields.map((f) => f.text) : []).toEqual([
      "*Pedido*\nORD-1001",
      expect.stringMatching(/^\*Caduca\*\n<!date\^\d+\^/),
    ]);
    expect(slack.blocks[2]).toMatchObject({ elements: [{ url: `https://approvals.example.com/proposals/${row.id}` }] });
    expect(slack.text).toMatch(
      /^Cambio de dirección de envío: la revisión caduca pronto: pedido ORD-1001, caduca 30 nov/,
    );
    expect(slackProposalMessage("new_proposal", row, en).text).toMatch(
      /^Shipping address change awaiting review: order ORD-1001, expires Nov 30, 2026/,
    );
    for (const value of personal) expect(JSON.stringify(slack)).not.toContain(value);
  });

  it("a kind without a label of its own is named by its kind; one concerning no order has no order line", () => {
    const mail = proposalMail("new_proposal", { ...row, kind: "close_account", orderNumber: null }, en);
    expect(mail.subject).toMatch(/^To review: close_account — expires/);
    expect(mail.text).not.toContain("Order:");
  });

  it("the in-doubt alert of a kind's execution: the kind, the order, the last error and a link to the execution", () => {
    const mail = inDoubtMail(
      { executionId: "e-1", kind: row.kind, orderNumber: "ORD-1001", lastError: "timeout: no answer" },
      en,
    );
    expect(mail.subject).toBe("Execution in doubt: Shipping address change, order ORD-1001");
    expect(mail.text).toContain("Last error: timeout: no answer");
    expect(mail.text).toContain("Open the execution: https://approvals.example.com/executions/e-1");
    expect(mail.text).not.toMatch(/refund|payment provider/i);
    const spanish = inDoubtMail({ executionId: "e-1", kind: row.kind, orderNumber: null, lastError: null }, es);
    expect(spanish.subject).toBe("Ejecución en duda: Cambio de dirección de envío");
  });
});
