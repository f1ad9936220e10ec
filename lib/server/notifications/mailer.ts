import "server-only";
import nodemailer, { type Transporter } from "nodemailer";
import { mailConfig } from "@/lib/server/env";
import { log } from "@/lib/server/log";

export type OutgoingMail = { to: string; subject: string; text: string; html: string };
export type MailResult = { ok: true; messageId: string } | { ok: false; error: string };

let transport: { url: string; transporter: Transporter } | null = null;
let saidOff = false;

/**
 * Whether notification e-mail is on (SMTP_URL and MAIL_FROM set). When it is off — the demo, or a
 * production install without SMTP — that is said once in the log and no e-mail rows are created.
 */
export function emailEnabled(): boolean {
  if (mailConfig()) return true;
  if (!saidOff) {
    saidOff = true;
    log.info({ component: "notifications" }, "e-mail notifications are off (SMTP_URL is not set)");
  }
  return false;
}

/**
 * Sends one e-mail over the configured SMTP server (nodemailer; one pooled-less transport per URL).
 * Only the delivery job calls this — never a request. Errors are short and never contain the URL
 * (which may carry SMTP credentials).
 */
export async function sendMail(mail: OutgoingMail): Promise<MailResult> {
  const config = mailConfig();
  if (!config) return { ok: false, error: "e-mail is off (SMTP_URL is not set)" };
  if (transport?.url !== config.smtpUrl) {
    transport?.transporter.close();
    transport = {
      url: config.smtpUrl,
      transporter: nodemailer.createTransport(config.smtpUrl, {
        from: config.from,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      }),
    };
  }
  try {
    const info = (await transport.transporter.sendMail({
      from: config.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
    })) as {
      messageId?: string;
    };
    return { ok: true, messageId: info.messageId ?? "" };
  } catch (error) {
    const e = error as { code?: string; responseCode?: number; message?: string };
    const detail = e.responseCode ? `SMTP ${e.responseCode}` : (e.code ?? "send failed");
    return { ok: false, error: `e-mail not sent (${detail})` };
  }
}
