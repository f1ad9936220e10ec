/** Whether an authentication at `authTimeSeconds` is still fresh enough to approve at `now`. */
export function isAuthFresh(authTimeSeconds: number, stepUpMinutes: number, now: Date = new Date()): boolean {
  return now.getTime() - authTimeSeconds * 1000 <= stepUpMinutes * 60_000;
}

/**
 * When the step-up window of this session started, in unix seconds: the last successful step-up recorded
 * for the session (docs/design.md, "Step-up that lasts its window"), else the sign-in itself.
 */
export function stepUpClock(actor: { authTime: number; stepUpAt?: number }): number {
  return actor.stepUpAt ?? actor.authTime;
}
