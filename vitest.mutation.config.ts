// The tests StrykerJS runs against each mutant (npm run test:mutation): the
// unit tests, and the coalescing comparison with the real Helm 3 and 4.
import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

// The architecture, style, docs and error-catalogue tests read the sources, which Stryker's instrumented copies are not.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["test/unit/**/*.test.ts", "test/integration/coalesce-helm.test.ts"],
    exclude: ["test/unit/architecture.test.ts", "test/unit/tsdoc.test.ts", "test/unit/errors.test.ts", "test/unit/style.test.ts"],
  },
});
