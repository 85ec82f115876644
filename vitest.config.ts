import { resolve } from "node:path";
import { defineConfig } from "vitest/config";

const root = import.meta.dirname;

export default defineConfig({
  // The example program and config import the package by name; tests use the source.
  resolve: {
    alias: [
      { find: /^chartroom\/pulumi$/, replacement: resolve(root, "src/deploy/pulumi/index.ts") },
      { find: /^chartroom\/codegen$/, replacement: resolve(root, "src/codegen/index.ts") },
      { find: /^chartroom\/policy$/, replacement: resolve(root, "src/deploy/pulumi/policy-pack.ts") },
      { find: /^chartroom$/, replacement: resolve(root, "src/index.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/setup.ts"],
    // Ceilings against hangs, not budgets: a test that takes 10 s idle takes 30 s on a
    // loaded 2-core machine. Engine, cluster, consumer and types tests set their own.
    testTimeout: 180_000,
    hookTimeout: 300_000,
    pool: "forks",
  },
});
