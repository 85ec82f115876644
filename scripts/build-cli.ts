// The CLI as users run it (bin/chartroom.js): one ES module bundle with its
// dependencies, split where the code loads lazily (each command, the cluster
// client, type generation), in dist/bundle/. A CLI run then reads a handful of
// files instead of about 560 modules (ours and zod's, yaml's, ajv's…), which
// was most of what a small review cost.
//
// The bundle sits one folder below dist/, as every compiled module does
// (dist/config/load.js), so paths a module computes from its own location
// (`../config/define`, `../data/*.json`, `../policy`) name the same files
// from either. Left out and loaded from node_modules at run time: jiti (it
// loads its transpiler from its own files), kubernetes-models (one module per
// kind, chosen at run time), and what only `types` and signed charts need.
// Run after tsc (npm run build does both).
import { rm } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { build } from "esbuild";

const root = resolve(import.meta.dirname, "..");
const out = join(root, "dist", "bundle");

await rm(out, { recursive: true, force: true });
const result = await build({
  entryPoints: { main: join(root, "src", "cli", "main.ts") },
  outdir: out,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: ["jiti", "kubernetes-models", "kubernetes-models/*", "json-schema-to-typescript", "openpgp"],
  // Bundled CommonJS dependencies call require(); an ES module has none of its own.
  banner: { js: 'import { createRequire as __chartroomRequire } from "node:module";\nconst require = __chartroomRequire(import.meta.url);' },
  metafile: true,
  logLevel: "warning",
});
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
process.stdout.write(`built ${relative(root, out)}: ${Object.keys(result.metafile.outputs).length} files, ${(bytes / 1e6).toFixed(1)} MB\n`);
