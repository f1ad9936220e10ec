// The queue's filters and sort live in the URL (nuqs): they survive reload and can be shared.
// The same parsers are read by the server page (to seed the first paint) and the client table.
import { createLoader, parseAsString, parseAsStringLiteral } from "nuqs/server";

export const queueFlags = ["duplicate", "velocity", "two_approvals"] as const;
export const queueSorts = ["expiry", "amount_desc", "amount_asc", "newest"] as const;
export type QueueSort = (typeof queueSorts)[number];

export const queueParams = {
  channel: parseAsString,
  flag: parseAsStringLiteral(queueFlags),
  sort: parseAsStringLiteral(queueSorts).withDefault("expiry"),
};

export const loadQueueParams = createLoader(queueParams);
