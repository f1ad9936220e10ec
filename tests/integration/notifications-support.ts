// A real SMTP server for the notification tests (the `smtp-server` package on 127.0.0.1), parsing each
// message with mailparser; plus the worker and the job-table helpers those tests share.
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { runJobsOnce } from "../support/run-jobs-once";

export type ReceivedMail = { to: string[]; from: string; subject: string; text: string; html: string };

export type TestSmtp = {
  url: string;
  mails: ReceivedMail[];
  /** SMTP reply codes to refuse the next recipients with (e.g. [451]); consumed one per RCPT TO. */
  refuseNext: number[];
  close(): Promise<void>;
};

export async function startSmtp(port = 0): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const refuseNext: number[] = [];
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback: nodemailer would otherwise upgrade to STARTTLS with a self-signed cert.
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(_address, _session, callback) {
      const code = refuseNext.shift();
      if (code) return callback(Object.assign(new Error("try again later"), { responseCode: code }));
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          mails.push({
            to: session.envelope.rcptTo.map((a) => a.address),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : "",
          });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const actual = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${actual}`,
    mails,
    refuseNext,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const worker = runJobsOnce;

/** The retry backoff is e^attempt seconds; a test makes the waiting delivery jobs due now instead of sleeping. */
export const makeNotificationJobsDue = async (): Promise<number> => {
  const done = await sql`UPDATE graphile_worker._private_jobs j SET run_at = now() - interval '1 second'
                     FROM graphile_worker._private_tasks t WHERE t.id = j.task_id AND t.identifier = 'deliver_notification'`.execute(
    sqlPool(),
  );
  return Number(done.numAffectedRows ?? 0);
};

export const staffId = async (email: string) =>
  (await db().staffUser.findUniqueOrThrow({ where: { email }, select: { id: true } })).id;
