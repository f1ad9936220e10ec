// The product's version (package.json; CHANGELOG.md lists what each one changed), shown in /api/health and in
// the dashboard's footer, so an operator can tell which build an instance runs.
import pkg from "../../package.json";

export const APP_VERSION: string = pkg.version;
