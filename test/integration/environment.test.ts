// Faults of the machine rather than of the input: a full disk, a read-only
// folder, a file where the cache folder should be, HOME unset. Each run is the
// compiled CLI as a real process, in a user and mount namespace of its own
// (`unshare -rm`) so that small tmpfs mounts can be full or read-only without
// root. A failing run gives a coded error naming the path and what to do, no
// stack trace, and leaves every file of the platform as it was (no empty
// writer lock, no temporary file).
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { helm } from "../helpers/helm.js";
import { copyPlatform } from "../helpers/platform.js";
import { compiledCli, runGroup, type ProcessOutcome } from "../helpers/process.js";
import { tempDir } from "../helpers/tmp.js";

let cli = "";
let helmBin = "";

beforeAll(async () => {
  cli = compiledCli();
  helmBin = await helm(4);
});

/** Every file under `dir`, by digest (mount points and the cache aside). */
async function fingerprint(dir: string, skip: string[] = []): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const path = relative(dir, join(entry.parentPath, entry.name));
    if (!entry.isFile() || skip.some((prefix) => path.startsWith(prefix))) continue;
    out[path] = createHash("sha256")
      .update(await readFile(join(dir, path)))
      .digest("hex");
  }
  return out;
}

const quote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

interface Setup {
  /** Shell lines run inside the namespace before chartroom (mounts). */
  mounts?: string[];
  env?: NodeJS.ProcessEnv;
  unset?: string[];
}

/** chartroom in the platform, inside its own user and mount namespace. */
async function inNamespace(dir: string, args: string[], setup: Setup = {}): Promise<ProcessOutcome> {
  const env = { CHARTROOM_CACHE: join(dir, ".cache"), HELM_BIN: helmBin, CHARTROOM_TODAY: "2026-11-30", NO_COLOR: "1", ...setup.env };
  const unset = (setup.unset ?? []).map((name) => `unset ${name}; `).join("");
  const script = [...(setup.mounts ?? []), `${unset}exec ${quote(process.execPath)} ${quote(cli)} ${args.map(quote).join(" ")}`].join(" && ");
  return runGroup("unshare", ["--user", "--map-root-user", "--mount", "sh", "-c", script], { cwd: dir, env, timeoutMs: 120_000 });
}

const tmpfs = (path: string, size = "1m") => `mkdir -p ${quote(path)} && mount -t tmpfs -o size=${size} tmpfs ${quote(path)}`;
const fill = (path: string) => `(dd if=/dev/zero of=${quote(join(path, "fill"))} bs=64k 2>/dev/null; true)`;
const readOnly = (path: string) => `mount --bind ${quote(path)} ${quote(path)} && mount -o remount,bind,ro ${quote(path)}`;

function expectCoded(outcome: ProcessOutcome, code: string, path: string): void {
  const printed = outcome.stdout + outcome.stderr;
  expect(outcome.code, printed).toBe(1);
  expect(printed).toContain(`error ${code}:`);
  expect(printed).toContain(path);
  expect(printed).toContain("hint: ");
  expect(printed, "no stack trace").not.toMatch(/^\s+at .+[:(]\d+/m);
  expect(printed).not.toContain("INTERNAL");
}

describe("faults of the environment", () => {
  it.each([
    [
      "a full disk under the cache",
      (_dir: string, cache: string) => ({ mounts: [tmpfs(cache), fill(cache)], env: { CHARTROOM_CACHE: cache } }),
      "render",
      "FILE_UNWRITABLE",
      "no space left",
    ],
    [
      "a read-only cache",
      (_dir: string, cache: string) => ({ mounts: [tmpfs(cache), `mount -o remount,ro ${quote(cache)}`], env: { CHARTROOM_CACHE: cache } }),
      "render",
      "FILE_UNWRITABLE",
      "CHARTROOM_CACHE",
    ],
    [
      "a full TMPDIR",
      (_dir: string, cache: string) => ({ mounts: [tmpfs(`${cache}-tmp`, "64k"), fill(`${cache}-tmp`)], env: { TMPDIR: `${cache}-tmp` } }),
      "render",
      "FILE_UNWRITABLE",
      "TMPDIR",
    ],
    [
      "a read-only TMPDIR",
      (_dir: string, cache: string) => ({ mounts: [tmpfs(`${cache}-tmp`), `mount -o remount,ro ${quote(`${cache}-tmp`)}`], env: { TMPDIR: `${cache}-tmp` } }),
      "render",
      "FILE_UNWRITABLE",
      "TMPDIR",
    ],
    [
      "a read-only platform folder, for lock",
      (dir: string, cache: string) => ({ mounts: [readOnly(dir)], env: { CHARTROOM_CACHE: cache } }),
      "lock",
      "FILE_UNWRITABLE",
      ".chartroom",
    ],
    [
      "a read-only platform folder, for types",
      (dir: string, cache: string) => ({ mounts: [readOnly(dir)], env: { CHARTROOM_CACHE: cache } }),
      "types",
      "FILE_UNWRITABLE",
      "chartroom.types.ts",
    ],
  ] as const)(
    "%s: a coded error naming the path, every file unchanged",
    async (_, setup, command, code, said) => {
      const dir = await copyPlatform();
      const cache = join(await tempDir("chartroom-env-"), "mount");
      const args = command === "render" ? ["render", "webapp", "--stack", "dev"] : command === "types" ? ["types"] : ["lock", "webapp"];
      if (command === "types") await writeFile(join(dir, "chartroom.types.ts"), "// stale\n");
      if (command === "lock")
        await writeFile(join(dir, "chartroom.config.ts"), (await readFile(join(dir, "chartroom.config.ts"), "utf8")).replace('"~1.0.0"', '"^1.0.0"'));
      const before = await fingerprint(dir, [".cache"]);
      const outcome = await inNamespace(dir, args, setup(dir, cache));
      expectCoded(outcome, code, said);
      expect(await fingerprint(dir, [".cache"])).toStrictEqual(before);
      expect(await readdir(join(dir, ".chartroom")).catch(() => [])).not.toContain("writer.lock");
    },
    120_000,
  );

  it("a full disk under the platform: lock fails without an empty writer lock or a half-written charts.lock.json", async () => {
    const outer = await tempDir("chartroom-env-");
    const dir = join(outer, "platform");
    await mkdir(dir);
    // The platform is copied onto a small tmpfs inside the namespace, then the disk is filled.
    const source = await copyPlatform();
    await writeFile(join(source, "chartroom.config.ts"), (await readFile(join(source, "chartroom.config.ts"), "utf8")).replace('"~1.0.0"', '"^1.0.0"'));
    const before = await fingerprint(source, [".cache"]);
    const script = [tmpfs(dir, "4m"), `cp -r ${quote(source)}/. ${quote(dir)}`, `rm -rf ${quote(join(dir, ".cache"))}`, fill(dir), `cd ${quote(dir)}`];
    const outcome = await runGroup(
      "unshare",
      [
        "--user",
        "--map-root-user",
        "--mount",
        "sh",
        "-c",
        [
          ...script,
          `${quote(process.execPath)} ${quote(cli)} lock webapp; code=$?; rm -f fill; tar -C ${quote(dir)} --exclude=.cache -cf ${quote(join(outer, "after.tar"))} . ; exit $code`,
        ].join(" && "),
      ],
      { cwd: outer, env: { CHARTROOM_CACHE: join(outer, "cache"), HELM_BIN: helmBin, NO_COLOR: "1" }, timeoutMs: 120_000 },
    );
    expectCoded(outcome, "FILE_UNWRITABLE", "no space left");
    // What the platform held when the run ended, unpacked outside the namespace.
    const after = join(outer, "after");
    await mkdir(after);
    await runGroup("tar", ["-xf", join(outer, "after.tar"), "-C", after], { cwd: outer, timeoutMs: 30_000 });
    const files = await fingerprint(after);
    expect(Object.keys(files).filter((path) => path.startsWith(".chartroom/writer.lock") || path.endsWith(".tmp"))).toStrictEqual([]);
    expect(files["charts.lock.json"]).toBe(before["charts.lock.json"]);
  });

  it("a file where the cache folder should be: said before anything is read", async () => {
    const dir = await copyPlatform();
    const file = join(await tempDir("chartroom-env-"), "cache");
    await writeFile(file, "not a folder");
    for (const cache of [file, join(file, "below")])
      expectCoded(
        await inNamespace(dir, ["render", "webapp", "--stack", "dev"], { env: { CHARTROOM_CACHE: cache } }),
        "FILE_UNWRITABLE",
        "the cache folder is not a folder",
      );
  });

  it("reads a read-only checkout: check, plan, render and diff need to write nothing in the platform", async () => {
    const dir = await copyPlatform();
    for (const args of [
      ["check", "--stack", "dev"],
      ["plan"],
      ["render", "webapp", "--stack", "dev"],
      ["diff", "webapp", "--to", "latest", "--stack", "dev"],
    ]) {
      const outcome = await inNamespace(dir, args, { mounts: [readOnly(dir)], env: { CHARTROOM_CACHE: join(await tempDir("chartroom-env-cache-"), "c") } });
      expect([0, 2], `${args.join(" ")}: ${outcome.stderr}`).toContain(outcome.code);
      expect(outcome.stderr).toBe("");
    }
  }, 240_000);

  it("runs with HOME unset: the cache defaults below the user's home from the system", async () => {
    const dir = await copyPlatform();
    const outcome = await inNamespace(dir, ["outdated"], { unset: ["HOME", "CHARTROOM_CACHE", "XDG_CACHE_HOME"] });
    expect([0, 2], outcome.stderr).toContain(outcome.code);
    expect(outcome.stdout).toContain("webapp");
  });
});
