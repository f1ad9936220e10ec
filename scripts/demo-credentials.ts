// npm run demo:credentials: the JSON a person or a script drives the demo with (docs/design.md).
// Only prints data of the public, deterministic demo; end-user tokens are minted fresh.
import { demoCredentials } from "./lib/demo-data";

process.stdout.write(JSON.stringify(await demoCredentials(), null, 2) + "\n");
