import { staffRoute } from "@/lib/server/http/staff-route";
import { getInbox } from "@/lib/server/inbox/get-inbox";

export const dynamic = "force-dynamic";

/** "Waiting for you" (docs/design.md "Inbox"): read by the inbox page and the shell's badge. */
export const GET = staffRoute((actor) => getInbox(actor));
