// A short fingerprint of one queue page as the API serializes it (Response.json → JSON.stringify). The
// server page renders the list and hands the fingerprint of its first page to the live island, which polls
// /api/proposals and asks for a server refresh only when the fingerprint of the answer differs.
// FNV-1a (32 bit) over UTF-16 code units: tiny, fast, not cryptographic (a change detector only).
export function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36) + ":" + text.length.toString(36);
}
