import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL(".", import.meta.url));
const alias = {
  "@/": root,
  // `server-only` throws outside React Server Components; tests import the data layer directly.
  "server-only": fileURLToPath(new URL("./tests/support/empty.ts", import.meta.url)),
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          sequence: { groupOrder: 0 },
          include: [
            "lib/**/*.test.ts",
            "app/**/*.test.ts",
            "scripts/**/*.test.ts",
            "components/**/*.test.ts",
            "provider-sandbox/**/*.test.ts",
            // The guard over the server-dependent / server-neutral lists of integration files.
            "tests/support/**/*.test.ts",
          ],
          environment: "node",
          // One worker process runs many files (a fresh process per file was ~40 s of this project's ~55 s);
          // tests/support/fresh-file.ts gives each file what a fresh process would (environment, modules, timers).
          isolate: false,
          setupFiles: ["tests/support/fresh-file.ts"],
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          sequence: { groupOrder: 1 },
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/support/global-setup.ts"],
          // Reused worker processes as in the unit project (a fresh process per file was ~200 s of this project's
          // ~520 s); database-per-file.ts closes what a file opened on its database (process-resources.ts).
          isolate: false,
          setupFiles: ["tests/support/fresh-file.ts", "tests/support/database-per-file.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Two cores: more forks only add contention.
          maxWorkers: 2,
        },
      },
    ],
  },
});
