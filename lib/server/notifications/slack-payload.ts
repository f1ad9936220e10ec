import "server-only";
// use-intl/core (next-intl's own core, without React): the worker loads this under the react-server
// condition, where importing "next-intl" pulls React hooks that do not exist there.
import { createTranslator } from "use-intl/core";
import { formatMinor } from "@/lib/domain/format-money";
import { languageOf } from "@/lib/i18n/locales";
import en from "@/messages/en.json";
import es from "@/messages/es.json";
import { formatExpiry, proposalUrl, type MessageContext, type ProposalFacts } from "./notification-messages";

// Slack-compatible incoming-webhook body (Block Kit): a header, the amount, the masked recipient and
// the expiry as fields, and a button to the proposal; `text` is the notification fallback. Mattermost,
// Rocket.Chat and Discord's /slack endpoint accept the same shape. No customer names, no hash.

type PlainText = { type: "plain_text"; text: string; emoji?: boolean };
type Mrkdwn = { type: "mrkdwn"; text: string };
export type SlackBlock =
  | { type: "header"; text: PlainText }
  | { type: "section"; fields: Mrkdwn[] }
  | {
      type: "actions";
      elements: { type: "button"; text: PlainText; url: string; style?: "primary"; action_id: string }[];
    };
export type SlackMessage = { text: string; blocks: SlackBlock[] };

const catalogs = { en: en.notifications, es: es.notifications };

/** Slack mrkdwn control characters: &, < and > must be escaped in any text we did not write. */
export const escapeMrkdwn = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** "Send test" in Admin: a header and one line, posted through the same outbox and worker as every other message. */
export function slackTestMessage(ctx: Pick<MessageContext, "locale">): SlackMessage {
  const language = languageOf(ctx.locale);
  const t = createTranslator({
    locale: language,
    messages: { notifications: catalogs[language] },
    namespace: "notifications.slack",
  });
  return {
    text: `${t("testHeader")}: ${t("testText")}`,
    blocks: [
      { type: "header", text: { type: "plain_text", text: t("testHeader"), emoji: false } },
      { type: "section", fields: [{ type: "mrkdwn", text: escapeMrkdwn(t("testText")) }] },
    ],
  };
}

export function slackProposalMessage(
  kind: "new_proposal" | "expiring",
  p: ProposalFacts,
  ctx: MessageContext,
): SlackMessage {
  const language = languageOf(ctx.locale);
  const t = createTranslator({
    locale: language,
    messages: { notifications: catalogs[language] },
    namespace: "notifications.slack",
  });
  const amount = formatMinor(p.amountMinor, p.currency, ctx.locale);
  const expiry = formatExpiry(p.expiresAt, ctx.locale, ctx.timeZone);
  const header = t(kind === "new_proposal" ? "newHeader" : "expiringHeader");
  const unix = Math.floor(p.expiresAt.getTime() / 1000);
  return {
    text: t("fallback", { header, amount, recipient: p.recipientDisplay, expiresUtc: expiry.utc }),
    blocks: [
      { type: "header", text: { type: "plain_text", text: header, emoji: false } },
      {
        type: "section",
        fields: [
          { type: "mrkdwn", text: `*${t("amount")}*\n${escapeMrkdwn(amount)}` },
          { type: "mrkdwn", text: `*${t("recipient")}*\n${escapeMrkdwn(p.recipientDisplay)}` },
          // Slack shows <!date…> in each reader's own zone; other tools show the fallback after the |.
          {
            type: "mrkdwn",
            text: `*${t("expires")}*\n<!date^${unix}^{date_short_pretty} {time}|${escapeMrkdwn(`${expiry.utc} (${expiry.local})`)}>`,
          },
        ],
      },
      {
        type: "actions",
        elements: [
          {
            type: "button",
            text: { type: "plain_text", text: t("button") },
            url: proposalUrl(ctx.baseUrl, p.id),
            style: "primary",
            action_id: "open_proposal",
          },
        ],
      },
    ],
  };
}
