/**
 * The app's URL for the demo scripts (agent:demo): `--base-url` if given, else localhost on `PORT` — the port
 * `npm start` listens on (default 3000) — so `PORT=3100 npm start` and `PORT=3100 npm run agent:demo` meet.
 */
export function demoBaseUrl(argv: readonly string[], env: Record<string, string | undefined>): string {
  const i = argv.indexOf("--base-url");
  const given = i >= 0 ? argv[i + 1] : undefined;
  return (given || `http://localhost:${env.PORT || 3000}`).replace(/\/$/, "");
}
