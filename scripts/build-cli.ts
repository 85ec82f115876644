// The CLI as users run it: cli/start.ts and everything it loads, with its
// dependencies, in one CommonJS file (dist/bundle/chartroom.cjs) that
// cli/main.js loads through V8's code cache (cli/boot.ts). A CLI run then
// reads one file and compiles almost nothing, where loading about 560 ES
// modules (ours and zod's, yaml's, ajv's…) and compiling them was most of
// what a small review cost. Lazy imports stay lazy: esbuild runs a lazily
// imported module's code only when it is first imported.
//
// The bundle sits one folder below dist/, as every compiled module does
// (dist/config/load.js), so paths a module computes from its own location
// (util/installed.ts) name the same files from either. Left out and loaded
// from node_modules at run time: jiti (config/load.ts says why),
// kubernetes-models (one module per kind, chosen at run time), and what only
// `types` and signed charts need. Run after tsc (npm run build).
import { createHash } from "node:crypto";
import { readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { build, type Plugin } from "esbuild";

const root = resolve(import.meta.dirname, "..");

// zod exports every language it can word its errors in (`z.locales`, ≈300 KB
// of the bundle, each module run at start). chartroom words its own errors and
// never switches zod's language: only English, the default zod sets itself.
const englishOnly: Plugin = {
  name: "zod-english-only",
  setup(builder) {
    builder.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: resolve(args.resolveDir, "../locales/en.js"), namespace: "zod-english" } : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: "zod-english" }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: dirname(args.path),
    }));
  },
};
const out = join(root, "dist", "bundle");
const file = join(out, "chartroom.cjs");

await rm(out, { recursive: true, force: true });
await build({
  entryPoints: [join(root, "src", "cli", "start.ts")],
  outfile: file,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  external: ["kubernetes-models", "kubernetes-models/*", "json-schema-to-typescript", "openpgp"],
  // import() of a package left out becomes require() of its CommonJS entry: code V8 compiles
  // from a script (as boot.ts does) has no module loader to import with.
  supported: { "dynamic-import": false },
  // Less to read and hash at every start; names kept, so a stack trace still reads.
  minifyWhitespace: true,
  minifySyntax: true,
  define: { "import.meta.url": "__chartroomFileUrl", "import.meta.dirname": "__dirname" },
  banner: { js: 'const __chartroomFileUrl = require("node:url").pathToFileURL(__filename).href;' },
  plugins: [englishOnly],
  logLevel: "warning",
});
const bytes = await readFile(file);
// The code cache is keyed by what the bundle holds: npm gives every installed file the same time.
const sha256 = createHash("sha256").update(bytes).digest("hex");
await writeFile(join(out, "manifest.json"), `${JSON.stringify({ file: "chartroom.cjs", sha256 }, null, 2)}\n`);
process.stdout.write(`built ${relative(root, file)}: ${(bytes.length / 1e6).toFixed(1)} MB\n`);
