import "server-only";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { checkWebhookUrl, isInternalAddress } from "./webhook-url";

// The one outbound client for URLs an admin typed (reviewer and decision webhooks, Slack/Teams incoming
// webhooks, audit witnesses, the tenant's action endpoint): the request leaves from inside our network, so it must not be steerable there.

export type GuardedAnswer =
  /** Any HTTP status, 3xx included (never followed). `complete`: the body was read whole, under the cap. */
  | { ok: true; status: number; body: string; complete: boolean }
  /** No HTTP answer. `permanent`: retrying cannot help (the URL itself is refused). */
  | { ok: false; status: null; error: string; permanent: boolean };

/**
 * guardedRequest's answer: guardedPost's, and when there was no HTTP answer, `failure` says why for callers that
 * answer with a code: the URL refused by the check, a host resolving inside our network at connect time (nothing
 * was sent in either case), the timeout, any other connection failure.
 */
export type GuardedRequestAnswer =
  | Extract<GuardedAnswer, { ok: true }>
  | (Extract<GuardedAnswer, { ok: false }> & {
      failure: "url_refused" | "internal_address" | "timeout" | "connection";
    });

/**
 * A DNS lookup that refuses internal addresses at connect time, so a public name that resolves (or is
 * re-pointed) inside our network is refused too. Node calls it with `all: true` (happy eyeballs) or
 * without; it answers in the matching form.
 */
function guardedLookup(allowPrivate: boolean, label: string): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 0);
      const refused = !allowPrivate && addresses.some((a) => isInternalAddress(a.address));
      if (refused || addresses.length === 0) {
        const err = Object.assign(
          new Error(refused ? `the ${label} host resolves to an internal address` : "no address"),
          { code: "EREFUSED_INTERNAL" },
        );
        return callback(err, "", 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

/** One request through the guarded client: a POST with a body, or a GET without one. */
export type GuardedRequest = {
  method: "GET" | "POST";
  url: string;
  /** The request body (POST only; a GET sends none). */
  body?: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivate: boolean;
  maxResponseBytes: number;
  /** What the URL is, in error messages: "webhook", "witness", "action endpoint". */
  label: string;
};

/**
 * POSTs one body to a URL checked like a webhook's (checkWebhookUrl; every resolved address checked again at
 * connect time). No redirect is followed: a 3xx is answered as it came. The whole exchange is bounded by
 * `timeoutMs`; at most `maxResponseBytes` of the answer are read (the rest is dropped, `complete: false`).
 * Errors are short and never contain the URL's query, the headers or the answer's body: what the caller
 * keeps or shows of the body is its own decision.
 */
export async function guardedPost(
  input: Omit<GuardedRequest, "method" | "body"> & { body: string },
): Promise<GuardedAnswer> {
  const answer = await guardedRequest({ ...input, method: "POST" });
  if (answer.ok) return answer;
  return { ok: false, status: null, error: answer.error, permanent: answer.permanent };
}

/**
 * guardedPost's client for either method: the same URL check, connect-time address check, no redirects, one
 * timeout over the whole exchange and the same cap on the answer. A GET sends no body.
 */
export async function guardedRequest(input: GuardedRequest): Promise<GuardedRequestAnswer> {
  const checked = checkWebhookUrl(input.url, { allowPrivate: input.allowPrivate });
  if (!checked.ok)
    return {
      ok: false,
      status: null,
      error: `${input.label} URL refused (${checked.problem})`,
      permanent: true,
      failure: "url_refused",
    };
  const url = checked.url;
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const signal = AbortSignal.timeout(input.timeoutMs);
  const body = input.method === "POST" ? (input.body ?? "") : null;

  return new Promise<GuardedRequestAnswer>((resolve) => {
    let settled = false;
    const finish = (result: GuardedRequestAnswer) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const req = send(
      url,
      {
        method: input.method,
        headers: body === null ? input.headers : { ...input.headers, "content-length": Buffer.byteLength(body) },
        lookup: guardedLookup(input.allowPrivate, input.label),
        signal,
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let received = 0;
        let complete = true;
        res.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > input.maxResponseBytes) {
            complete = false;
            res.destroy();
          } else chunks.push(chunk);
        });
        const done = (whole: boolean) => () =>
          finish({ ok: true, status, body: Buffer.concat(chunks).toString("utf8"), complete: complete && whole });
        res.on("end", done(true));
        res.on("close", done(false));
        res.on("error", done(false));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (signal.aborted)
        return finish({
          ok: false,
          status: null,
          error: `timeout after ${input.timeoutMs} ms`,
          permanent: false,
          failure: "timeout",
        });
      if (error.code === "EREFUSED_INTERNAL")
        return finish({ ok: false, status: null, error: error.message, permanent: false, failure: "internal_address" });
      finish({
        ok: false,
        status: null,
        error: `connection failed (${error.code ?? error.name})`,
        permanent: false,
        failure: "connection",
      });
    });
    req.end(body ?? undefined);
  });
}
