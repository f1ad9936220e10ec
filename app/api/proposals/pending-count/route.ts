import { staffRoute } from "@/lib/server/http/staff-route";
import { countPendingProposals } from "@/lib/server/proposals/count-pending-proposals";

export const dynamic = "force-dynamic";

/** The reviewer's tab title: how many proposals wait (a capped COUNT, polled by the app shell). */
export const GET = staffRoute((actor) => countPendingProposals(actor));
