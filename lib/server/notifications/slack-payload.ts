import "server-only";
// use-intl/core (next-intl's own core, without React): the worker loads this under the react-server
// condition, where importing "next-intl" pulls React hooks that do not exist there.
import { createTranslator } from "use-intl/core";
import { formatMinor } from "@/lib/domain/format-money";
import { languageOf } from "@/lib/i18n/locales";
import en from "@/messages/en.json";
import es from "@/messages/es.json";
import {
  formatExpiry,
  hasAmount,
  kindLabel,
  proposalUrl,
  type KindProposalFacts,
  type MessageContext,
  type ProposalFacts,
} from "./notification-messages";

// Slack-compatible incoming-webhook body (Block Kit): a header, the amount, the masked recipient and
// the expiry as fields, and a button to the proposal; `text` is the notification fallback. Mattermost,
// Rocket.Chat and Discord's /slack endpoint accept the same shape. No customer names, no hash. A proposal of
// another kind: its kind's label in the header and its order number instead of amount and recipient — never its
// params (a new address, a name).

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
  const t = slackTranslator(ctx.locale);
  return {
    text: `${t("testHeader")}: ${t("testText")}`,
    blocks: [
      { type: "header", text: { type: "plain_text", text: t("testHeader"), emoji: false } },
      { type: "section", fields: [{ type: "mrkdwn", text: escapeMrkdwn(t("testText")) }] },
    ],
  };
}

function slackTranslator(locale: string) {
  const language = languageOf(locale);
  return createTranslator({
    locale: language,
    messages: { notifications: catalogs[language] },
    namespace: "notifications.slack",
  });
}

/** The expiry field: Slack shows <!date…> in each reader's own zone; other tools show the fallback after the |. */
function expiryField(label: string, at: Date, ctx: MessageContext): Mrkdwn {
  const expiry = formatExpiry(at, ctx.locale, ctx.timeZone);
  const unix = Math.floor(at.getTime() / 1000);
  return {
    type: "mrkdwn",
    text: `*${label}*\n<!date^${unix}^{date_short_pretty} {time}|${escapeMrkdwn(`${expiry.utc} (${expiry.local})`)}>`,
  };
}

function kindProposalMessage(
  kind: "new_proposal" | "expiring",
  p: KindProposalFacts,
  ctx: MessageContext,
): SlackMessage {
  const t = slackTranslator(ctx.locale);
  const label = kindLabel(p.kind, ctx.locale);
  const header = t(kind === "new_proposal" ? "kindNewHeader" : "kindExpiringHeader", { kind: label });
  const expiry = formatExpiry(p.expiresAt, ctx.locale, ctx.timeZone);
  const fields: Mrkdwn[] = [];
  if (p.orderNumber) fields.push({ type: "mrkdwn", text: `*${t("order")}*\n${escapeMrkdwn(p.orderNumber)}` });
  fields.push(expiryField(t("expires"), p.expiresAt, ctx));
  return {
    text: p.orderNumber
      ? t("kindFallbackOfOrder", { header, order: p.orderNumber, expiresUtc: expiry.utc })
      : t("kindFallback", { header, expiresUtc: expiry.utc }),
    blocks: [
      { type: "header", text: { type: "plain_text", text: header, emoji: false } },
      { type: "section", fields },
      openProposalButton(t("button"), proposalUrl(ctx.baseUrl, p.id)),
    ],
  };
}

function openProposalButton(text: string, url: string): SlackBlock {
  return {
    type: "actions",
    elements: [
      { type: "button", text: { type: "plain_text", text }, url, style: "primary", action_id: "open_proposal" },
    ],
  };
}

export function slackProposalMessage(
  kind: "new_proposal" | "expiring",
  p: ProposalFacts | KindProposalFacts,
  ctx: MessageContext,
): SlackMessage {
  if (!hasAmount(p)) return kindProposalMessage(kind, p, ctx);
  const t = slackTranslator(ctx.locale);
  const amount = formatMinor(p.amountMinor, p.currency, ctx.locale);
  const expiry = formatExpiry(p.expiresAt, ctx.locale, ctx.timeZone);
  const header = t(kind === "new_proposal" ? "newHeader" : "expiringHeader");
  return {
    text: t("fallback", { header, amount, recipient: p.recipientDisplay, expiresUtc: expiry.utc }),
    blocks: [
      { type: "header", text: { type: "plain_text", text: header, emoji: false } },
      {
        type: "section",
        fields: [
          { type: "mrkdwn", text: `*${t("amount")}*\n${escapeMrkdwn(amount)}` },
          { type: "mrkdwn", text: `*${t("recipient")}*\n${escapeMrkdwn(p.recipientDisplay)}` },
          expiryField(t("expires"), p.expiresAt, ctx),
        ],
      },
      openProposalButton(t("button"), proposalUrl(ctx.baseUrl, p.id)),
    ],
  };
}
