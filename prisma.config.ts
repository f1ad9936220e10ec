// Prisma 7 loads this file before every CLI command.
//
// The Prisma CLI wants to download a native schema-engine binary before it does anything, even
// `prisma generate`, which does not use it. That download is not reachable on our machines, so we
// point PRISMA_SCHEMA_ENGINE_BINARY at an executable that exists (generate never runs it). Migrations
// are created and applied by scripts/db-*.ts with the WebAssembly build of the same engine instead;
// where the native engine can be downloaded, unset the variable and `prisma migrate deploy` works
// unchanged on the same prisma/migrations folder.
import { defineConfig } from "prisma/config";

if (!process.env.PRISMA_SCHEMA_ENGINE_BINARY && process.env.PRISMA_USE_NATIVE_ENGINE !== "1") {
  process.env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
}

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/unused" },
});
