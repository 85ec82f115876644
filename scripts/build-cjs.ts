// The CommonJS build beside the ES module one (dist/cjs/), for Pulumi
// projects with `"module": "commonjs"` (most of them) on any Node.js 20:
// every source file transformed on its own (no bundle, so the lazy loading
// of workflows stays), `import.meta` replaced by its CommonJS equivalents,
// the declarations copied so that TypeScript reads them as CommonJS too.
// Run after `tsc -p tsconfig.build.json` (npm run build does both); it also
// copies the JSON data files into dist/.
import { cp, mkdir, readdir, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { build } from "esbuild";

const root = resolve(import.meta.dirname, "..");
const src = join(root, "src");
const dist = join(root, "dist");
const out = join(dist, "cjs");

async function files(dir: string, keep: (path: string) => boolean): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && keep(path)) found.push(path);
  }
  return found.sort();
}

// The CLI is an ES module program with top-level await; it is not part of the library.
const sources = await files(src, (path) => path.endsWith(".ts") && !path.endsWith(".d.ts") && !relative(src, path).startsWith("cli/"));
await build({
  entryPoints: sources,
  outdir: out,
  outbase: src,
  format: "cjs",
  platform: "node",
  target: "node20",
  bundle: false,
  logLevel: "warning",
  define: { "import.meta.url": "__chartroomFileUrl", "import.meta.dirname": "__dirname" },
  banner: { js: 'const __chartroomFileUrl = require("node:url").pathToFileURL(__filename).href;' },
});

// Data files the modules read, beside both builds: they are required at run
// time, not imported, so tsc does not copy them. Then the declarations (under
// a folder whose package.json says commonjs).
for (const path of await files(src, (file) => file.endsWith(".json"))) {
  for (const target of [dist, out]) {
    if (target === out && relative(src, path).startsWith("cli/")) continue;
    await mkdir(dirname(join(target, relative(src, path))), { recursive: true });
    await cp(path, join(target, relative(src, path)));
  }
}
for (const path of await files(
  dist,
  (file) => file.endsWith(".d.ts") && !relative(dist, file).startsWith("cjs/") && !relative(dist, file).startsWith("cli/"),
)) {
  await mkdir(dirname(join(out, relative(dist, path))), { recursive: true });
  await cp(path, join(out, relative(dist, path)));
}
await writeFile(join(out, "package.json"), `${JSON.stringify({ type: "commonjs" }, null, 2)}\n`);
process.stdout.write(`built ${relative(root, out)}: ${sources.length} modules\n`);
