import "server-only";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { checkWebhookUrl, isInternalAddress } from "./webhook-url";

export type PostResult =
  | { ok: true; status: number }
  /** `permanent`: retrying cannot help (the URL itself is refused). */
  | { ok: false; status: number | null; error: string; permanent: boolean };

const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * A DNS lookup that refuses internal addresses at connect time, so a public name that resolves (or is
 * re-pointed) inside our network is refused too. Node calls it with `all: true` (happy eyeballs) or
 * without; it answers in the matching form.
 */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 0);
      const refused = !allowPrivate && addresses.some((a) => isInternalAddress(a.address));
      if (refused || addresses.length === 0) {
        const err = Object.assign(
          new Error(refused ? "the webhook host resolves to an internal address" : "no address"),
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

/**
 * POSTs one JSON body. No redirects are followed (a 3xx is a failed attempt), the whole exchange is
 * bounded by `timeoutMs`, the response body is read (up to 64 KiB) and discarded: only the status is
 * kept. Errors are short and never contain the URL's query, headers or the body.
 */
export async function postWebhook(input: {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivate: boolean;
}): Promise<PostResult> {
  const checked = checkWebhookUrl(input.url, { allowPrivate: input.allowPrivate });
  if (!checked.ok)
    return { ok: false, status: null, error: `webhook URL refused (${checked.problem})`, permanent: true };
  const url = checked.url;
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const signal = AbortSignal.timeout(input.timeoutMs);

  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const req = send(
      url,
      {
        method: "POST",
        headers: {
          ...input.headers,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(input.body),
          "user-agent": "approval-gateway-webhooks/1",
        },
        lookup: guardedLookup(input.allowPrivate),
        signal,
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        let received = 0;
        res.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) res.destroy();
        });
        const done = () =>
          finish(
            status >= 200 && status < 300
              ? { ok: true, status }
              : {
                  ok: false,
                  status,
                  error: `HTTP ${status}${status >= 300 && status < 400 ? " (redirects are not followed)" : ""}`,
                  permanent: false,
                },
          );
        res.on("end", done);
        res.on("close", done);
        res.on("error", done);
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (signal.aborted)
        return finish({ ok: false, status: null, error: `timeout after ${input.timeoutMs} ms`, permanent: false });
      if (error.code === "EREFUSED_INTERNAL")
        return finish({ ok: false, status: null, error: error.message, permanent: false });
      finish({ ok: false, status: null, error: `connection failed (${error.code ?? error.name})`, permanent: false });
    });
    req.end(input.body);
  });
}
