#!/bin/sh
# The container's entrypoint (Dockerfile) and the production start of a pruned tree: scripts/start.ts in
# production mode (DATABASE_URL set). It applies pending migrations (idempotent; compose runs them once before),
# checks the secrets and the demo-tenant rule, then serves the built app behind scripts/serve.ts. Extra arguments
# go to scripts/start.ts (compose runs the worker as its own service, so the app gets --no-worker).
# tests: e2e/deploy-package.spec.ts runs this file as it is, from a tree holding only what the image copies.
set -eu
cd "$(dirname "$0")/.."
if [ -z "${DATABASE_URL:-}" ]; then
  echo '{"level":50,"service":"entrypoint","msg":"DATABASE_URL is not set: the image runs in production mode only (docs/operations.md)"}' >&2
  exit 1
fi
exec node --conditions=react-server --import tsx scripts/start.ts "$@"
