import "server-only";
import { guardedPost } from "./guarded-post";

export type PostResult =
  | { ok: true; status: number }
  /** `permanent`: retrying cannot help (the URL itself is refused). */
  | { ok: false; status: number | null; error: string; permanent: boolean };

const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs one JSON body through the guarded client (guarded-post.ts: internal addresses refused, also at connect
 * time). No redirects are followed (a 3xx is a failed attempt), the whole exchange is bounded by
 * `timeoutMs`, the response body is read (up to 64 KiB) and discarded: only the status is kept. Errors are
 * short and never contain the URL's query, headers or the body.
 */
export async function postWebhook(input: {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivate: boolean;
}): Promise<PostResult> {
  const answer = await guardedPost({
    url: input.url,
    body: input.body,
    headers: { ...input.headers, "content-type": "application/json", "user-agent": "approval-gateway-webhooks/1" },
    timeoutMs: input.timeoutMs,
    allowPrivate: input.allowPrivate,
    maxResponseBytes: MAX_RESPONSE_BYTES,
    label: "webhook",
  });
  if (!answer.ok) return answer;
  const { status } = answer;
  if (status >= 200 && status < 300) return { ok: true, status };
  return {
    ok: false,
    status,
    error: `HTTP ${status}${status >= 300 && status < 400 ? " (redirects are not followed)" : ""}`,
    permanent: false,
  };
}
