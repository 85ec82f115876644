// The code cache the package ships beside its bundles (dist/bundle/v8/,
// read by cli/boot.ts): what V8 compiled of both bundles in one process that
// ran the example platform's reviews. A user's first run, on a fresh CI
// runner too, then compiles only what those did not reach, where it compiled
// the 2 MB bundle (≈50 ms) and wrote its own cache at exit (≈20 ms).
//
// The kinds bundle's cache comes from a second process, which reviews a
// chart shaped like public ones (scripts/seed-charts/: HorizontalPodAutoscaler,
// PodDisruptionBudget, Ingress, NetworkPolicy, StatefulSet, CronJob, RBAC,
// webhooks… where the example renders seven kinds): the validators of each
// are compiled code a review of such a chart then reads instead of compiling
// (the app bench chart: 744 → 698 M instructions, valgrind; the example's
// tiny charts +1–2 %). That process reads the CLI bundle's cache the first
// made, so V8 keeps that one as it was.
//
// A second cache of the CLI bundle comes from the same reviews run again in a
// third process, over the renderings the first one cached: what a warm run
// compiles (1.3 MB against 1.6). cli/boot.ts reads it where the cache folder
// holds renderings.
//
// V8 takes a cache only from its own version and flags, so the seed fits the
// Node that ran this build (its V8 is in the file's name); any other Node
// reads no file, or is refused, and writes its own cache as before. A seed
// holds compiled code, never what a run read: the charts and values stay out
// of it.
import { spawnSync } from "node:child_process";
import { chmod, copyFile, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { codeCacheName } from "../src/cli/boot.js";
import { buildFixtureRepository } from "./fixtures.js";

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
    const reviews = train(root, scratch, example, cache, TRAINING);
    if (reviews !== undefined) return { skipped: `the training run failed (${reviews})` };
    if ((await readdir(join(cache, "v8")).catch(() => [])).length === 0) return { skipped: "the training run wrote no code cache" };
    const kinds = await trainKinds(root, scratch, cache, bundleFolder);
    if (kinds !== undefined) return { skipped: `the kinds training run failed (${kinds})` };
    const made = await readdir(join(cache, "v8"));
    // Kept aside while the warm training runs: it must find no cache of the CLI bundle's, shipped or not.
    const aside = join(scratch, "cold-v8");
    await cp(join(cache, "v8"), aside, { recursive: true });
    const warm = await trainWarm(root, scratch, example, cache, bundleFolder);
    if (typeof warm === "string") return { skipped: `the warm training run failed (${warm})` };
    await mkdir(join(bundleFolder, "v8"));
    const ship = async (from: string, name: string) => {
      // Written owner-only, as a user's cache is; the package's files are read by whoever runs it.
      await copyFile(from, join(bundleFolder, "v8", name));
      await chmod(join(bundleFolder, "v8", name), 0o644);
    };
    for (const name of made) await ship(join(aside, name), name);
    await ship(warm.file, warm.name);
    return { files: [...made, warm.name] };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The training chart's platform: its two versions in a folder repository, locked by the run. */
const KINDS_TRAINING = [["lock"], ["diff", "service", "--to", "1.1.0", "--stack", "prod"]];

/**
 * The kinds bundle's cache, made again by a review of scripts/seed-charts/'s
 * chart in `cache`: the CLI bundle's file is kept (V8 takes it, so the run
 * does not write it again), the kinds bundle's is removed and written anew.
 */
async function trainKinds(root: string, scratch: string, cache: string, bundleFolder: string): Promise<string | undefined> {
  const platform = join(scratch, "kinds");
  await buildFixtureRepository(join(platform, "charts"), join(root, "scripts", "seed-charts"));
  await mkdir(join(platform, "values", "service"), { recursive: true });
  await writeFile(join(platform, "values", "service", "values.yaml"), "replicaCount: 2\n");
  await writeFile(join(platform, "package.json"), JSON.stringify({ name: "kinds-training", private: true, type: "module" }));
  await writeFile(
    join(platform, "chartroom.config.ts"),
    [
      'import { defineConfig } from "chartroom";',
      "export default defineConfig({",
      '  repositories: { seed: "file://./charts" },',
      '  charts: { service: { repository: "seed", version: "1.0.0", namespace: "shop" } },',
      '  stacks: { prod: { kubeVersion: "1.33.0" } },',
      "});",
      "",
    ].join("\n"),
  );
  await rm(join(cache, "v8", await cacheNameOf(bundleFolder, "kinds.cjs")), { force: true });
  return train(root, scratch, platform, cache, KINDS_TRAINING);
}

/**
 * The CLI bundle's cache for a run whose cache folder holds renderings (cli/boot.ts
 * reads it there): the same reviews again in a new process, with the renderings the
 * first made, compile only what reading them back and comparing needs (1.3 MB against
 * 1.6): a warm review of the app bench chart ≈360 → ≈350 M instructions, the warm
 * `diff --base` of a 200-chart platform 170 → 160 ms of CPU. Made from no cache of
 * the CLI bundle's, so it holds what that run compiled and nothing else.
 */
async function trainWarm(
  root: string,
  scratch: string,
  example: string,
  cache: string,
  bundleFolder: string,
): Promise<{ file: string; name: string } | string> {
  const cold = await cacheNameOf(bundleFolder, "chartroom.cjs");
  await rm(join(cache, "v8", cold), { force: true });
  const failed = train(root, scratch, example, cache, TRAINING);
  if (failed !== undefined) return failed;
  return { file: join(cache, "v8", cold), name: await cacheNameOf(bundleFolder, "chartroom.cjs", "warm") };
}

/** The code cache file's name of one bundle file, from the digest build-cli.ts wrote in its manifest. */
async function cacheNameOf(bundleFolder: string, file: string, variant?: "warm"): Promise<string> {
  const manifest = JSON.parse(await readFile(join(bundleFolder, "manifest.json"), "utf8")) as Record<string, string>;
  return codeCacheName(manifest[file] ?? "", variant);
}

/**
 * `commands` in one process started in `cwd` with `cache` as its cache: the
 * code cache written at its exit holds what each compiled. Undefined when
 * all succeeded, else what failed.
 */
function train(root: string, scratch: string, cwd: string, cache: string, commands: string[][]): string | undefined {
  const program = [
    `const { loadStart } = await import(${JSON.stringify(pathToFileURL(join(root, "dist", "cli", "boot.js")).href)});`,
    "const cli = await loadStart();",
    `for (const argv of ${JSON.stringify(commands)}) {`,
    "  await cli.start(argv);",
    '  if (process.exitCode !== 0) throw new Error(`chartroom ${argv.join(" ")} exited ${process.exitCode}`);',
    "}",
  ].join("\n");
  // Under a plain `node`: V8 refuses a cache made under any flag that users' runs lack.
  const { NODE_OPTIONS: _, ...env } = process.env;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", program], {
    cwd,
    env: { ...env, CHARTROOM_CACHE: cache, TMPDIR: scratch, NO_COLOR: "1" },
    encoding: "utf8",
    stdio: ["ignore", "ignore", "pipe"],
    timeout: 300_000,
  });
  if (run.status === 0) return undefined;
  return `${run.error?.message ?? `exit ${run.status}`}: ${run.stderr.trim().split("\n").slice(-3).join(" ")}`;
}
