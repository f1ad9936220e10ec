// postinstall: generate the Prisma client without the native engine download (see prisma.config.ts).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, resolve } from "node:path";

if (!existsSync("prisma/schema.prisma")) process.exit(0);
const result = spawnSync(process.execPath, ["node_modules/prisma/build/index.js", "generate"], {
  stdio: "inherit",
  // node_modules/.bin first on PATH (as under `npm run`): Prisma starts the `prisma-kysely` generator
  // (prisma/schema.prisma) by its command name, also when this script is run as `node scripts/…`.
  env: {
    ...process.env,
    PATH: [resolve("node_modules/.bin"), process.env.PATH].filter(Boolean).join(delimiter),
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    CHECKPOINT_DISABLE: "1",
  },
});
process.exit(result.status ?? 1);
