import "server-only";
import { BlockList, isIP } from "node:net";
import { MAX_TENANT_WEBHOOK_URL_LENGTH } from "@/lib/schemas/tenant-webhooks";

// Which webhook URLs we are willing to call. Outside demo mode a tenant's webhook must not reach
// loopback, private, link-local or otherwise internal addresses (SSRF: the URL is typed by an admin,
// but the request leaves from inside our network). Checked twice: the literal host when the URL is
// saved, and every resolved address at connect time (post-webhook.ts), which also covers DNS names
// that point — or later re-point — inside.

export type WebhookUrlProblem = "invalid" | "protocol" | "credentials" | "private_address" | "too_long";
export type WebhookUrlCheck = { ok: true; url: URL } | { ok: false; problem: WebhookUrlProblem };

export const MAX_WEBHOOK_URL_LENGTH = MAX_TENANT_WEBHOOK_URL_LENGTH;

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
  ["64:ff9b:1::", 48], // local-use NAT64 (RFC 8215)
  ["::", 96], // IPv4-compatible (deprecated): ::127.0.0.1 is ::7f00:1
  ["::ffff:0:0:0", 96], // IPv4-translated (SIIT): ::ffff:0:127.0.0.1
  ["100::", 64], // discard-only
  ["fec0::", 10], // site-local (deprecated)
  ["2001:db8::", 32], // documentation
] as const) {
  internal.addSubnet(net, prefix, "ipv6");
}

/**
 * The eight 16-bit groups of an IPv6 address (already checked by isIP), a trailing dotted IPv4 included.
 * The URL parser hands us its canonical form (`[::ffff:127.0.0.1]` becomes `::ffff:7f00:1`), DNS any form.
 */
function ipv6Groups(address: string): number[] | null {
  let a = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (dotted) {
    const [b0, b1, b2, b3] = dotted.slice(1).map(Number) as [number, number, number, number];
    a = `${a.slice(0, dotted.index)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const halves = a.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const groups =
    halves.length === 2 ? [...head, ...Array<string>(8 - head.length - tail.length).fill("0"), ...tail] : head;
  if (groups.length !== 8) return null;
  return groups.map((g) => parseInt(g, 16));
}

const ipv4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * The IPv4 address a tunnelling IPv6 form carries, whose reach is that IPv4 address's: 6to4 (2002::/16,
 * the address in groups 1–2) and Teredo (2001:0::/32: the server in groups 2–3, the client inverted in
 * 6–7). The forms that embed one in the last 32 bits (mapped, compatible, SIIT, NAT64) are in the lists.
 */
function tunnelledIPv4(g: number[]): string[] {
  if (g[0] === 0x2002) return [ipv4Of(g[1]!, g[2]!)];
  if (g[0] === 0x2001 && g[1] === 0) return [ipv4Of(g[2]!, g[3]!), ipv4Of(g[6]! ^ 0xffff, g[7]! ^ 0xffff)];
  return [];
}

/**
 * True for loopback, private, link-local, CGNAT, multicast, reserved addresses, and for every IPv6 form that
 * reaches one of those: IPv4-mapped (BlockList applies the IPv4 rules to ::ffff:a.b.c.d itself),
 * IPv4-compatible, SIIT, NAT64, 6to4 and Teredo. A zone id (`fe80::1%eth0`) is ignored.
 */
export function isInternalAddress(address: string): boolean {
  const bare = address.split("%")[0]!;
  const family = isIP(bare);
  if (family === 4) return internal.check(bare, "ipv4");
  if (family !== 6) return false;
  if (internal.check(bare, "ipv6")) return true;
  const groups = ipv6Groups(bare);
  if (!groups) return true; // isIP said IPv6 but it does not expand: refuse rather than guess
  return tunnelledIPv4(groups).some((v4) => internal.check(v4, "ipv4"));
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
