/** Whether an authentication at `authTimeSeconds` is still fresh enough to approve at `now`. */
export function isAuthFresh(authTimeSeconds: number, stepUpMinutes: number, now: Date = new Date()): boolean {
  return now.getTime() - authTimeSeconds * 1000 <= stepUpMinutes * 60_000;
}
