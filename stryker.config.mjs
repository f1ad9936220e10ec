// Mutation testing of the pure domain code (npm run test:mutation; not part of npm test: it is CPU-heavy).
// The score is printed at the end and written to reports/mutation/.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts", related: false },
  plugins: ["@stryker-mutator/vitest-runner"],
  mutate: ["lib/domain/**/*.ts", "!lib/domain/**/*.test.ts"],
  coverageAnalysis: "perTest",
  // Static mutants (module-level constants) need every test re-run per mutant: about 70 % of the time
  // for 14 % of the mutants. They are reported as ignored, outside the score.
  ignoreStatic: true,
  // Re-runs only test what changed since reports/stryker-incremental.json.
  incremental: true,
  incrementalFile: "reports/stryker-incremental.json",
  concurrency: 1,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
  ignorePatterns: [".next", ".data", "test-results", "playwright-report", "reports", "bench/results", "e2e"],
};
