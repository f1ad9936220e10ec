import "server-only";
import { BlockList, isIP } from "node:net";

// Which webhook URLs we are willing to call. Outside demo mode a tenant's webhook must not reach
// loopback, private, link-local or otherwise internal addresses (SSRF: the URL is typed by an admin,
// but the request leaves from inside our network). Checked twice: the literal host when the URL is
// saved, and every resolved address at connect time (post-webhook.ts), which also covers DNS names
// that point — or later re-point — inside.

export type WebhookUrlProblem = "invalid" | "protocol" | "credentials" | "private_address" | "too_long";
export type WebhookUrlCheck = { ok: true; url: URL } | { ok: false; problem: WebhookUrlProblem };

export const MAX_WEBHOOK_URL_LENGTH = 2048;

const internal = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  internal.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
  ["64:ff9b::", 96], // NAT64 (embeds an IPv4 address)
] as const) {
  internal.addSubnet(net, prefix, "ipv6");
}

/** True for loopback, private, link-local, CGNAT, multicast, reserved and IPv4-mapped forms of those. */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return internal.check(address, "ipv4");
  if (family !== 6) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return internal.check(mapped[1], "ipv4");
  return internal.check(address, "ipv6");
}

function hostIsInternal(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  return isInternalAddress(host);
}

/** Parses and checks a webhook URL: http(s) only, no user:password, and (unless allowed) no internal literal host. */
export function checkWebhookUrl(raw: string, opts: { allowPrivate: boolean }): WebhookUrlCheck {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return { ok: false, problem: "too_long" };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, problem: "invalid" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, problem: "protocol" };
  if (!url.hostname) return { ok: false, problem: "invalid" };
  // Credentials in the URL would be stored, shown and audited in clear: the signature authenticates us.
  if (url.username || url.password) return { ok: false, problem: "credentials" };
  if (!opts.allowPrivate && hostIsInternal(url.hostname)) return { ok: false, problem: "private_address" };
  return { ok: true, url };
}
