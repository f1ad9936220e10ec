# syntax=docker/dockerfile:1
# The Approval Gateway image (docs/operations.md "Deploying with containers"): build, production dependencies
# only, then a runtime stage running as an unprivileged user. Build: `docker build -t approval-gateway .`
# e2e/deploy-package.spec.ts checks that everything copied here exists and runs the entrypoint from such a tree.

# 1. Build: every dependency, the generated Prisma client, the Next.js build.
FROM node:24-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
COPY prisma ./prisma
COPY prisma.config.ts ./
COPY scripts/prisma-generate.mjs ./scripts/prisma-generate.mjs
COPY scripts/check-node.mjs ./scripts/check-node.mjs
RUN npm ci --no-audit --no-fund
COPY . .
RUN node scripts/prisma-generate.mjs && node node_modules/next/dist/bin/next build

# 2. Production dependencies only (no test runners, linters or type checker).
FROM node:24-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# 3. Runtime: the pruned tree, owned by root and run as the unprivileged "node" user.
FROM node:24-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 HOST=0.0.0.0
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/.next ./.next
COPY --from=build /app/lib ./lib
COPY --from=build /app/app ./app
COPY --from=build /app/components ./components
COPY --from=build /app/messages ./messages
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/package.json /app/tsconfig.json /app/next.config.js /app/proxy.ts /app/prisma.config.ts ./
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["/app/scripts/docker-entrypoint.sh"]
