// The queue's filters, sort and how many pages are shown live in the URL: they survive reload and can be
// shared. The server page reads them (nuqs/server, server only); the client toolbar only writes the URL.
import { createLoader, parseAsInteger, parseAsString, parseAsStringLiteral } from "nuqs/server";
import { queueFlags, queueSorts } from "./queue-options";

export { queueFlags, queueSorts, type QueueSort, type QueueFlag } from "./queue-options";

export const queueParams = {
  channel: parseAsString,
  flag: parseAsStringLiteral(queueFlags),
  sort: parseAsStringLiteral(queueSorts).withDefault("expiry"),
  pages: parseAsInteger.withDefault(1),
};

export const loadQueueParams = createLoader(queueParams);
