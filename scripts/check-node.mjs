// npm's preinstall: one line when this Node is older than package.json's engines (>= 24), in place of npm's
// ~450 lines of per-package EBADENGINE warnings, which .npmrc silences (loglevel=error): the install goes on.
const major = Number(process.versions.node.split(".")[0]);
if (major < 24)
  console.error(
    `Node ${process.version}: this project is built and supported on Node 24 or newer (package.json "engines"); ` +
      "the install continues, and npm's engine warnings about it are expected and hidden (.npmrc). Use Node 24 to run it for real.",
  );
