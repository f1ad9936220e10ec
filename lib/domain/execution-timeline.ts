import { isExecutionSettled, type ExecutionState } from "./execution-state";

/** What the timeline needs of an event (lib/schemas/execution-dto.ts's ExecutionEvent). */
type TimelineEvent = { action: string; kind: string; status: ExecutionState | null };

export type TimelineItem<E> = { type: "event"; event: E } | { type: "superseded"; events: E[] };

const SETTLING_ANSWERS = new Set(["execution:succeeded", "execution:failed"]);
/** Lines that only said "not settled yet": answers without an outcome, reconciliations and "Check now". */
const IN_DOUBT_ANSWERS = new Set(["execution:unknown", "execution:pending"]);

function settles(e: TimelineEvent): boolean {
  return SETTLING_ANSWERS.has(e.action) || (e.status !== null && isExecutionSettled(e.status));
}

function onlyInDoubt(e: TimelineEvent): boolean {
  return IN_DOUBT_ANSWERS.has(e.action) || e.kind === "reconcile" || e.kind === "check";
}

/**
 * The execution timeline with its superseded lines folded: once a settling answer is recorded, the "still in
 * doubt" lines before it (answers without an outcome, reconciliations that found nothing final, "Check now")
 * no longer describe the refund, so each run of them becomes one collapsed group at its place. Sends and
 * re-sends stay visible (they are what was asked of the provider); so does everything from the settlement on,
 * and everything while the execution is not settled. Events are oldest first; the order is kept.
 */
export function foldSupersededLines<E extends TimelineEvent>(events: readonly E[]): TimelineItem<E>[] {
  const settledAt = events.findIndex(settles);
  const items: TimelineItem<E>[] = [];
  events.forEach((event, i) => {
    if (settledAt < 0 || i >= settledAt || !onlyInDoubt(event) || event.action === "execution:duplicate_detected") {
      items.push({ type: "event", event });
      return;
    }
    const last = items.at(-1);
    if (last?.type === "superseded") last.events.push(event);
    else items.push({ type: "superseded", events: [event] });
  });
  return items;
}
