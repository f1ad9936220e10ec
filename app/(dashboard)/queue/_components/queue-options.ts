// The queue's filter and sort values, with no imports: the server page and the small client toolbar both
// read them (the toolbar must not pull nuqs into the browser).
export const queueFlags = ["duplicate", "velocity", "two_approvals"] as const;
export type QueueFlag = (typeof queueFlags)[number];
export const queueSorts = ["expiry", "amount_desc", "amount_asc", "newest"] as const;
export type QueueSort = (typeof queueSorts)[number];
/** "Load more" keeps adding pages of 25 (keyset cursor) up to this many. */
export const QUEUE_MAX_PAGES = 20;

/** The name of the rows' bulk-reject checkboxes (server-rendered), read by the BulkReject island. */
export const BULK_CHECKBOX = "bulk-reject";
