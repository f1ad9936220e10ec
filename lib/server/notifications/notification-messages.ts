import "server-only";
// use-intl/core (next-intl's own core, without React): the worker loads this under the react-server
// condition, where importing "next-intl" pulls React hooks that do not exist there.
import { createTranslator } from "use-intl/core";
import { formatMinor } from "@/lib/domain/format-money";
import { languageOf } from "@/lib/i18n/locales";
import en from "@/messages/en.json";
import es from "@/messages/es.json";

// What a notification says, in the recipient's language (staff locale, else the tenant's). Only what a
// reviewer sees in the app: the amount, the masked recipient ("Visa •••• 4242"), the expiry and a link —
// never the holder's or customer's name, the full payment reference, or the hash-bound details.
// A proposal of another kind (docs/action-kinds.md) is named by its kind's label (messages `kinds.<kind>.title`)
// and its order number, never by its params: those hold personal data (a new street address, a name).

/** A proposal with an amount and a recipient of its own (the refund's columns). */
export type ProposalFacts = {
  id: string;
  amountMinor: number;
  currency: string;
  /** The masked form reviewers see (Proposal.recipientDisplay). */
  recipientDisplay: string;
  expiresAt: Date;
};

/** A proposal of a kind without amount columns: what it is (its kind) and what it concerns (the order's number). */
export type KindProposalFacts = {
  id: string;
  /** The stored kind's name (`Proposal.kind`), labelled from messages `kinds.<kind>.title`. */
  kind: string;
  /** Proposal.orderNumber, when the action concerns an order. */
  orderNumber: string | null;
  expiresAt: Date;
};

export const hasAmount = (p: ProposalFacts | KindProposalFacts): p is ProposalFacts => "amountMinor" in p;

export type MessageContext = { locale: string; timeZone: string; baseUrl: string };

const catalogs = { en: en.notifications, es: es.notifications };
const kindCatalogs: Record<"en" | "es", Record<string, { title?: string }>> = { en: en.kinds, es: es.kinds };

/** The kind's label in the recipient's language (messages `kinds.<kind>.title`), else the kind's own name. */
export function kindLabel(kind: string, locale: string): string {
  const catalog = kindCatalogs[languageOf(locale)];
  return (Object.hasOwn(catalog, kind) ? catalog[kind]?.title : undefined) ?? kind;
}

/** "Shipping address change, order ORD-1001" — or the label alone for an action concerning no order. */
function kindWhat(
  t: ReturnType<typeof translator>,
  p: { kind: string; orderNumber: string | null },
  locale: string,
): string {
  const kind = kindLabel(p.kind, locale);
  return p.orderNumber ? t("email.whatOfOrder", { kind, order: p.orderNumber }) : kind;
}

function translator(locale: string) {
  const language = languageOf(locale);
  return createTranslator({
    locale: language,
    messages: { notifications: catalogs[language] },
    namespace: "notifications",
  });
}

export function proposalUrl(baseUrl: string, proposalId: string): string {
  return `${baseUrl}/proposals/${encodeURIComponent(proposalId)}`;
}

/** "30 Nov 2026, 14:30 UTC" and the same instant in the tenant's zone ("15:30 CET"). */
export function formatExpiry(at: Date, locale: string, timeZone: string): { utc: string; local: string } {
  const utc =
    new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(at) + " UTC";
  // dateStyle/timeStyle cannot be combined with timeZoneName: spell the fields out.
  const local = new Intl.DateTimeFormat(locale, {
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  }).format(at);
  return { utc, local };
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

type Mail = { subject: string; text: string; html: string };

function renderMail(
  intro: string,
  rows: [string, string][],
  link: { label: string; url: string },
  footer: string,
  subject: string,
): Mail {
  const text = [
    intro,
    "",
    ...rows.map(([k, v]) => `${k}: ${v}`),
    "",
    `${link.label}: ${link.url}`,
    "",
    "--",
    footer,
  ].join("\n");
  const html = [
    `<p>${escapeHtml(intro)}</p>`,
    `<table cellpadding="4">${rows.map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join("")}</table>`,
    `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`,
    `<p style="color:#666;font-size:12px">${escapeHtml(footer)}</p>`,
  ].join("\n");
  return { subject, text, html };
}

/** The e-mail for a new proposal (`new_proposal`) or its reminder (`expiring`). */
export function proposalMail(
  kind: "new_proposal" | "expiring",
  p: ProposalFacts | KindProposalFacts,
  ctx: MessageContext,
): Mail {
  if (!hasAmount(p)) return kindProposalMail(kind, p, ctx);
  const t = translator(ctx.locale);
  const amount = formatMinor(p.amountMinor, p.currency, ctx.locale);
  const expiry = formatExpiry(p.expiresAt, ctx.locale, ctx.timeZone);
  const subject = t(kind === "new_proposal" ? "email.newSubject" : "email.expiringSubject", {
    amount,
    expiresUtc: expiry.utc,
  });
  return renderMail(
    t(kind === "new_proposal" ? "email.newIntro" : "email.expiringIntro"),
    [
      [t("email.amount"), amount],
      [t("email.recipient"), p.recipientDisplay],
      [t("email.expires"), t("email.expiresValue", expiry)],
    ],
    { label: t("email.open"), url: proposalUrl(ctx.baseUrl, p.id) },
    t("email.footer", { settingsUrl: `${ctx.baseUrl}/account/notifications` }),
    subject,
  );
}

function kindProposalMail(kind: "new_proposal" | "expiring", p: KindProposalFacts, ctx: MessageContext): Mail {
  const t = translator(ctx.locale);
  const expiry = formatExpiry(p.expiresAt, ctx.locale, ctx.timeZone);
  const what = kindWhat(t, p, ctx.locale);
  const rows: [string, string][] = [[t("email.action"), kindLabel(p.kind, ctx.locale)]];
  if (p.orderNumber) rows.push([t("email.order"), p.orderNumber]);
  rows.push([t("email.expires"), t("email.expiresValue", expiry)]);
  return renderMail(
    t(kind === "new_proposal" ? "email.kindNewIntro" : "email.kindExpiringIntro"),
    rows,
    { label: t("email.open"), url: proposalUrl(ctx.baseUrl, p.id) },
    t("email.footer", { settingsUrl: `${ctx.baseUrl}/account/notifications` }),
    t(kind === "new_proposal" ? "email.kindNewSubject" : "email.kindExpiringSubject", {
      what,
      expiresUtc: expiry.utc,
    }),
  );
}

export type InDoubtFacts =
  | { amountMinor: number; currency: string; recipientDisplay: string; lastError: string | null }
  | { executionId: string; kind: string; orderNumber: string | null; lastError: string | null };

/** The ops alert for an execution whose outcome became unknown. */
export function inDoubtMail(e: InDoubtFacts, ctx: MessageContext): Mail {
  const t = translator(ctx.locale);
  if (!("amountMinor" in e)) {
    const rows: [string, string][] = [[t("email.action"), kindLabel(e.kind, ctx.locale)]];
    if (e.orderNumber) rows.push([t("email.order"), e.orderNumber]);
    if (e.lastError) rows.push([t("email.inDoubtCause"), e.lastError.slice(0, 200)]);
    return renderMail(
      t("email.kindInDoubtIntro"),
      rows,
      {
        label: t("email.openThisExecution"),
        url: `${ctx.baseUrl}/executions/${encodeURIComponent(e.executionId)}`,
      },
      t("email.footer", { settingsUrl: `${ctx.baseUrl}/account/notifications` }),
      t("email.kindInDoubtSubject", { what: kindWhat(t, e, ctx.locale) }),
    );
  }
  const amount = formatMinor(e.amountMinor, e.currency, ctx.locale);
  const rows: [string, string][] = [
    [t("email.amount"), amount],
    [t("email.recipient"), e.recipientDisplay],
  ];
  if (e.lastError) rows.push([t("email.inDoubtCause"), e.lastError.slice(0, 200)]);
  return renderMail(
    t("email.inDoubtIntro"),
    rows,
    { label: t("email.openExecution"), url: `${ctx.baseUrl}/executions` },
    t("email.footer", { settingsUrl: `${ctx.baseUrl}/account/notifications` }),
    t("email.inDoubtSubject", { amount }),
  );
}

/** "Send test" in Admin: a test e-mail to the admin who asked, through the same outbox and worker as every other. */
export function testMail(ctx: MessageContext): Mail {
  const t = translator(ctx.locale);
  return renderMail(
    t("email.testIntro"),
    [],
    { label: t("email.openAdmin"), url: `${ctx.baseUrl}/admin` },
    t("email.footer", { settingsUrl: `${ctx.baseUrl}/account/notifications` }),
    t("email.testSubject"),
  );
}
