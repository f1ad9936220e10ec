// The route an access-log line names (docs/operations.md "Logs"): the path without its query string, with
// every segment that may carry an identifier or a credential (a setup link's token, a proposal id, an order
// number) replaced by ":param", so ids and secrets never reach the log and lines group by route.
import { isUuid } from "./validation";

/** A segment kept as it is: a word without digits (route names, tenant slugs), or an API version ("v1"). */
const WORD = /^(?:[a-z_.-]{1,40}|v\d{1,2})$/i;

export function accessLogRoute(url: string | undefined): string {
  const path = (url ?? "/").split(/[?#]/, 1)[0] || "/";
  if (path.startsWith("/_next/static/")) return "/_next/static/:asset";
  const segments = path.split("/").map((segment) => {
    if (segment === "") return segment;
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return ":param";
    }
    return !isUuid(decoded) && WORD.test(decoded) && decoded.length < 32 ? decoded : ":param";
  });
  return segments.join("/") || "/";
}
