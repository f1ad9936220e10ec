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
