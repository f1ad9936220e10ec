// npm's preinstall: one line when this Node is older than package.json's engines (>= 24), in place of npm's
// ~450 lines of per-package EBADENGINE warnings, which .npmrc silences (loglevel=error). The install goes on:
// it brings Node 24 itself (the node-<platform> package), and the npm scripts run on that one.
const major = Number(process.versions.node.split(".")[0]);
if (major < 24)
  console.error(
    `Node ${process.version} is older than the Node 24 this project runs on: this is expected — the install brings ` +
      "Node 24 (node-<platform> in node_modules) and npm start / npm test run on it; npm's engine warnings are hidden (.npmrc).",
  );
