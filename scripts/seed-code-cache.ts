// The code cache the package ships beside its bundles (dist/bundle/v8/,
// read by cli/boot.ts): what V8 compiled of both bundles in one process that
// ran the example platform's reviews. A user's first run, on a fresh CI
// runner too, then compiles only what those did not reach, where it compiled
// the 2 MB bundle (≈50 ms) and wrote its own cache at exit (≈20 ms).
//
// V8 takes a cache only from its own version and flags, so the seed fits the
// Node that ran this build (its V8 is in the file's name); any other Node
// reads no file, or is refused, and writes its own cache as before. A seed
// holds compiled code, never what a run read: the example's charts and
// values stay out of it.
import { spawnSync } from "node:child_process";
import { chmod, copyFile, cp, mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * The example platform's commands the seed is made from: a review of each
 * kind of chart. V8 reads a whole cache in before a run starts, so more is
 * not better: trained also on `lock`, `check`, `plan` and `outdated` (2.8 MB
 * against 2.3), a cold `check` cost 330 ms of CPU instead of 302 and a cold
 * diff 323 instead of 313, though it compiled less (seven paired runs).
 */
const TRAINING = [
  ["diff", "webapp", "--to", "1.1.0", "--stack", "dev"],
  ["diff", "widgets-operator", "--to", "1.1.0", "--stack", "dev"],
];

/** The example platform's files a copy of it needs (the training's, the bench's): each writes `.chartroom/` there, never in the checkout. */
export const EXAMPLE_FILES = ["chartroom.config.ts", "charts.lock.json", "charts", "values", "policies", "package.json"];

/**
 * Runs the training in a copy of the example with an empty cache and copies
 * the cache it wrote into `bundleFolder`/v8. Returns what it wrote, or why
 * there is no seed (no helm that runs here, say): the CLI works without one.
 */
export async function seedCodeCache(root: string, bundleFolder: string): Promise<{ files: string[] } | { skipped: string }> {
  const scratch = await mkdtemp(join(tmpdir(), "chartroom-seed-"));
  try {
    const example = join(scratch, "example");
    for (const name of EXAMPLE_FILES) await cp(join(root, name), join(example, name), { recursive: true });
    const cache = join(scratch, "cache");
    // One process for every command: the cache written at its exit holds what each compiled.
    const program = [
      `const { loadStart } = await import(${JSON.stringify(pathToFileURL(join(root, "dist", "cli", "boot.js")).href)});`,
      "const cli = await loadStart();",
      `for (const argv of ${JSON.stringify(TRAINING)}) {`,
      "  await cli.start(argv);",
      '  if (process.exitCode !== 0) throw new Error(`chartroom ${argv.join(" ")} exited ${process.exitCode}`);',
      "}",
    ].join("\n");
    // Under a plain `node`: V8 refuses a cache made under any flag that users' runs lack.
    const { NODE_OPTIONS: _, ...env } = process.env;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", program], {
      cwd: example,
      env: { ...env, CHARTROOM_CACHE: cache, TMPDIR: scratch, NO_COLOR: "1" },
      encoding: "utf8",
      stdio: ["ignore", "ignore", "pipe"],
      timeout: 300_000,
    });
    if (run.status !== 0)
      return { skipped: `the training run failed (${run.error?.message ?? `exit ${run.status}`}): ${run.stderr.trim().split("\n").slice(-3).join(" ")}` };
    const made = await readdir(join(cache, "v8")).catch(() => [] as string[]);
    if (made.length === 0) return { skipped: "the training run wrote no code cache" };
    await mkdir(join(bundleFolder, "v8"));
    for (const name of made) {
      // Written owner-only, as a user's cache is; the package's files are read by whoever runs it.
      await copyFile(join(cache, "v8", name), join(bundleFolder, "v8", name));
      await chmod(join(bundleFolder, "v8", name), 0o644);
    }
    return { files: made };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
