// The CLI as users run it: cli/start.ts and everything it loads, with its
// dependencies, in one CommonJS file (dist/bundle/chartroom.cjs) that
// cli/main.cjs loads through V8's code cache (cli/boot.ts). A CLI run then
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
import { seedCodeCache } from "./seed-code-cache.js";
import { fillIdentifierTable, IDENTIFIER_FILE } from "./sucrase-tables.js";

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

// The same for the kinds' validators: @kubernetes-models/validate words
// schema errors through ajv-i18n, whose entry loads all its 20 languages
// (≈100 KB) to use `en`.
const ajvEnglishOnly: Plugin = {
  name: "ajv-i18n-english-only",
  setup(builder) {
    builder.onResolve({ filter: /^ajv-i18n$/ }, (args) => ({ path: args.importer, namespace: "ajv-i18n-english" }));
    builder.onLoad({ filter: /.*/, namespace: "ajv-i18n-english" }, (args) => ({
      contents: 'module.exports = { en: require("ajv-i18n/localize/en") };',
      resolveDir: dirname(args.path),
    }));
  },
};

// The kinds' validators check Kubernetes' formats (int32, int64, byte,
// double, date-time, quantity), but @kubernetes-models/validate also
// registers the draft-2019 formats and Istio's cidr, whose modules bring
// e-mail, IRI and punycode parsers that set themselves up at load (≈3 ms of
// every review that validates kinds). Each now loads when a schema first
// checks that format: for the kinds chartroom ships, never.
const lazyFormats: Plugin = {
  name: "lazy-formats",
  setup(builder) {
    const fromValidate = (importer: string) => /[\\/]@kubernetes-models[\\/]validate[\\/]/.test(importer);
    builder.onResolve({ filter: /^(ajv-formats-draft2019\/formats\/index\.js|is-cidr)$/ }, (args) =>
      fromValidate(args.importer) ? { path: args.path, namespace: "lazy-formats", pluginData: dirname(args.importer) } : undefined,
    );
    const lazy = "const lazy = (load) => { let check; return (value) => (check ??= load())(value); };";
    builder.onLoad({ filter: /.*/, namespace: "lazy-formats" }, (args) => ({
      contents:
        args.path === "is-cidr"
          ? `${lazy}\nmodule.exports = lazy(() => require("is-cidr"));`
          : [
              lazy,
              "module.exports = {",
              '  iri: lazy(() => require("ajv-formats-draft2019/formats/iri.js")),',
              '  duration: require("ajv-formats-draft2019/formats/duration.js"),',
              '  "idn-email": lazy(() => require("ajv-formats-draft2019/formats/idn-email.js")),',
              '  "idn-hostname": lazy(() => require("ajv-formats-draft2019/formats/idn-hostname.js")),',
              '  "iri-reference": lazy(() => require("ajv-formats-draft2019/formats/iri-reference.js")),',
              "};",
            ].join("\n"),
      resolveDir: args.pluginData as string,
    }));
  },
};

// sucrase checks its options against generated types (ts-interface-checker)
// and can write source maps (@jridgewell/gen-mapping); chartroom passes the
// same two valid option sets always and asks for no map. Both modules ran at
// every start: left out, with stand-ins that say so if ever reached.
const sucraseTrimmed: Plugin = {
  name: "sucrase-trimmed",
  setup(builder) {
    builder.onResolve({ filter: /^\.\/(Options|computeSourceMap)$/ }, (args) =>
      /[\\/]node_modules[\\/]sucrase[\\/]dist$/.test(args.resolveDir) ? { path: args.path, namespace: "sucrase-trimmed" } : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: "sucrase-trimmed" }, (args) => ({
      contents:
        args.path === "./Options"
          ? "exports.validateOptions = () => {};"
          : 'exports.default = () => { throw new Error("chartroom\'s bundle has no source maps"); };',
    }));
  },
};
const sucraseTables: Plugin = {
  name: "sucrase-tables",
  setup(builder) {
    builder.onLoad({ filter: IDENTIFIER_FILE }, async (args) => ({ contents: fillIdentifierTable(await readFile(args.path, "utf8")), loader: "js" }));
  },
};
// Each bundle file is written as the function Node wraps a CommonJS module in
// (Module.wrap's text): cli/boot.ts compiles it as it is, where wrapping it
// at run time copied the whole text into a second string (≈3 MB of a cold
// run's peak memory, until a full collection).
const WRAP = { banner: "(function (exports, require, module, __filename, __dirname) { ", footer: "\n});" };
// What every file this script builds is: one CommonJS file for the Node the package supports.
// ASCII only (esbuild escapes the rest): cli/boot.ts reads each file as latin1, the fast decoding, which is UTF-8's for ASCII.
const COMMONJS = { bundle: true, format: "cjs", platform: "node", target: "node20", minifySyntax: true, charset: "ascii", logLevel: "warning" } as const;
// import.meta.url in a CommonJS file: the file's own URL (util/installed.ts finds the package's files from it).
const FILE_URL = 'const __chartroomFileUrl = require("node:url").pathToFileURL(__filename).href;';
const out = join(root, "dist", "bundle");
const file = join(out, "chartroom.cjs");

await rm(out, { recursive: true, force: true });
await build({
  entryPoints: [join(root, "src", "cli", "start.ts")],
  outfile: file,
  ...COMMONJS,
  external: ["kubernetes-models", "kubernetes-models/*", "json-schema-to-typescript", "openpgp"],
  // import() of a package left out becomes require() of its CommonJS entry: code V8 compiles
  // from a script (as boot.ts does) has no module loader to import with.
  supported: { "dynamic-import": false },
  // Less to read, copy and deserialize at every start: identifiers minified too, 1.8 → 1.3 MB
  // (a cold review of the app bench chart 695 → 679 M instructions, 420 fewer page faults).
  // A bug's stack then names minified functions; the build is reproducible, so a
  // maintainer rebuilds that version with a source map (esbuild's --sourcemap) to read it.
  minifyWhitespace: true,
  minifyIdentifiers: true,
  define: { "import.meta.url": "__chartroomFileUrl", "import.meta.dirname": "__dirname" },
  banner: { js: `${WRAP.banner}${FILE_URL}` },
  footer: { js: WRAP.footer },
  plugins: [englishOnly, sucraseTrimmed, sucraseTables],
});
// The built-in kinds charts render most, with the kubernetes-models runtime,
// for the schema rule (cli/boot.ts answers the CLI bundle's require of them
// from this file). Any other kind still loads from node_modules.
const KINDS = [
  "v1/ConfigMap",
  "v1/Secret",
  "v1/Service",
  "v1/ServiceAccount",
  "v1/PersistentVolumeClaim",
  "v1/Pod",
  "v1/Namespace",
  "v1/Endpoints",
  "v1/LimitRange",
  "v1/ResourceQuota",
  "apps/v1/Deployment",
  "apps/v1/StatefulSet",
  "apps/v1/DaemonSet",
  "apps/v1/ReplicaSet",
  "batch/v1/Job",
  "batch/v1/CronJob",
  "networking.k8s.io/v1/Ingress",
  "networking.k8s.io/v1/IngressClass",
  "networking.k8s.io/v1/NetworkPolicy",
  "rbac.authorization.k8s.io/v1/Role",
  "rbac.authorization.k8s.io/v1/RoleBinding",
  "rbac.authorization.k8s.io/v1/ClusterRole",
  "rbac.authorization.k8s.io/v1/ClusterRoleBinding",
  "apiextensions.k8s.io/v1/CustomResourceDefinition",
  "apiregistration.k8s.io/v1/APIService",
  "admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration",
  "admissionregistration.k8s.io/v1/MutatingWebhookConfiguration",
  "policy/v1/PodDisruptionBudget",
  "autoscaling/v2/HorizontalPodAutoscaler",
  "scheduling.k8s.io/v1/PriorityClass",
  "storage.k8s.io/v1/StorageClass",
  "coordination.k8s.io/v1/Lease",
];
const kinds = join(out, "kinds.cjs");
await build({
  stdin: {
    // Each kind's module runs when it is first asked for, as from node_modules.
    contents: `module.exports = {\n${KINDS.map((kind) => `  "kubernetes-models/${kind}": () => require("kubernetes-models/${kind}"),`).join("\n")}\n};\n`,
    resolveDir: root,
    loader: "js",
  },
  outfile: kinds,
  banner: { js: WRAP.banner },
  footer: { js: WRAP.footer },
  plugins: [ajvEnglishOnly, lazyFormats],
  ...COMMONJS,
  minifyWhitespace: true,
  // Generated validators, whose names no stack trace needs: 1.34 → 0.9 MB to read at each review
  // that validates, its code cache 520 → 462 KB (loading both ≈0.7 ms less, median of 15 paired runs).
  minifyIdentifiers: true,
});

// The code cache is keyed by what each bundle holds: npm gives every installed file the same time.
const manifest: Record<string, string> = {};
for (const path of [file, kinds]) {
  const bytes = await readFile(path);
  const wide = bytes.findIndex((byte) => byte > 0x7f);
  if (wide >= 0) throw new Error(`${relative(root, path)} has a byte past ASCII at offset ${wide}: cli/boot.ts reads it as latin1`);
  manifest[relative(out, path)] = createHash("sha256").update(bytes).digest("hex");
}
await writeFile(join(out, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
for (const path of [file, kinds]) process.stdout.write(`built ${relative(root, path)}: ${((await readFile(path)).length / 1e6).toFixed(1)} MB\n`);

// The entry the package's bin runs: cli/main.ts with cli/top.ts and cli/boot.ts
// in one CommonJS file beside the compiled ES modules (dist/cli/main.cjs). A
// run then starts without Node's ES module loader, which reading and linking
// the seven small modules behind dist/cli/main.js cost (a warm small-chart
// diff 157 → 151 ms of CPU, `--help` 78 → 72). What the entry imports lazily
// besides boot (each command's module for top's table, start.js where there
// is no bundle) stays an import() of the compiled module beside it.
const launcher = join(root, "dist", "cli", "main.cjs");
const besideIt: Plugin = {
  name: "compiled-modules-beside-it",
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, (args) =>
      args.kind === "dynamic-import" && args.path !== "./boot.js" ? { path: args.path, external: true } : undefined,
    );
  },
};
await build({
  entryPoints: [join(root, "src", "cli", "main.ts")],
  outfile: launcher,
  ...COMMONJS,
  define: { "import.meta.url": "__chartroomFileUrl" },
  banner: { js: FILE_URL },
  plugins: [besideIt],
});

const seed = await seedCodeCache(root, out);
if ("files" in seed) {
  let bytes = 0;
  for (const name of seed.files) bytes += (await readFile(join(out, "v8", name))).length;
  process.stdout.write(
    `seeded the code cache for Node ${process.version} (V8 ${process.versions.v8}): ${seed.files.length} files, ${(bytes / 1e6).toFixed(1)} MB\n`,
  );
} else process.stderr.write(`warning: no code cache shipped, so a user's first run compiles the bundle: ${seed.skipped}\n`);
