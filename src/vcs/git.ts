import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { ChartroomError } from "../errors/index.js";
import { runProcess } from "../render/run.js";
import { writeError } from "../util/fs.js";
import { makeTempDir, removeTempDir } from "../util/temp.js";

export interface Snapshot {
  /** Where the tree at the ref was written. */
  root: string;
  /** The folder inside `root` that matches `dir` in the working tree. */
  dir: string;
  /** With `inMemory`: that folder's files, by their path under `dir` (`values/web/dev.yaml`), kept out of `root`. */
  files?: Map<string, Buffer>;
  remove(): Promise<void>;
}

/**
 * The tracked files of the repository holding `dir`, byte for byte as they
 * were committed at `ref`, written to a temporary folder (the working tree
 * is not touched). Read from git's object database (ls-tree and cat-file),
 * not through `git archive` or a checkout: .gitattributes' export-ignore and
 * export-subst, and filters from .git/config, neither change what is read
 * nor run anything.
 */
export async function snapshotAt(dir: string, ref: string, options: { inMemory?: string } = {}): Promise<Snapshot> {
  const top = await git(dir, ["rev-parse", "--show-toplevel"], `${dir} is not inside a git repository`, "run --base from a git checkout");
  const commit = await git(
    dir,
    ["rev-parse", "--verify", "--end-of-options", `${ref}^{commit}`],
    `unknown git ref "${ref}"`,
    "pass a branch, tag or commit, e.g. --base origin/main",
  );
  const root = await makeTempDir("base");
  const under = relative(top, dir);
  const kept: Kept | undefined =
    options.inMemory === undefined ? undefined : { prefix: `${under === "" ? "" : `${under}/`}${options.inMemory}/`, files: new Map<string, Buffer>() };
  try {
    await writeTree(top, commit, root, kept);
  } catch (error) {
    await removeTempDir(root);
    throw error;
  }
  const files = kept?.kept !== true ? {} : { files: new Map([...kept.files].map(([path, bytes]) => [path.slice(under === "" ? 0 : under.length + 1), bytes])) };
  return { root, dir: join(root, under), ...files, remove: () => removeTempDir(root) };
}

// Settings that would make git run a program or rewrite what it reads, off for every call.
const SAFE = ["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "protocol.allow=never"];

async function git(dir: string, args: string[], problem: string, hint: string): Promise<string> {
  const result = await gitRun(dir, args).catch((error: unknown) => {
    throw new ChartroomError("USAGE", `${problem}: git could not run (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, {
      hint: "is git installed and on PATH?",
      cause: error,
    });
  });
  if (result.code !== 0)
    throw new ChartroomError("USAGE", problem, { hint, details: result.stderr.trim() === "" ? [] : [`git: ${result.stderr.trim().split("\n")[0]}`] });
  return result.stdout.trim();
}

function gitRun(dir: string, args: string[], input?: string) {
  return runProcess("git", [...SAFE, "-C", dir, ...args], {
    timeoutMs: 120_000,
    input,
    env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0" },
  });
}

interface Entry {
  mode: string;
  type: string;
  object: string;
  path: string;
}

/** Every blob of the commit's tree, written under `root`: regular files with their mode, links last, submodules as empty folders. */
async function writeTree(top: string, commit: string, root: string, kept?: Kept): Promise<void> {
  try {
    await writeEntries(top, commit, root, kept);
  } catch (error) {
    throw writeError(error, root, "the snapshot of the base ref (a temporary folder)", "set TMPDIR to a writable folder with space");
  }
}

/** A folder's files kept in memory instead of written: hundreds of values files cost a millisecond each to create on some disks. */
interface Kept {
  /** The folder, under the repository's top, with a trailing slash. */
  prefix: string;
  files: Map<string, Buffer>;
  /** False when the folder was written out after all (a link in it). */
  kept?: boolean;
}

async function writeEntries(top: string, commit: string, root: string, kept?: Kept): Promise<void> {
  const listed = await gitBytes(top, ["ls-tree", "-r", "-z", "--full-tree", commit]);
  const entries = parseTree(listed.toString("utf8"));
  const blobs = entries.filter((entry) => entry.type === "blob");
  const contents =
    blobs.length === 0
      ? new Map<string, Buffer>()
      : await catFiles(
          top,
          blobs.map((entry) => entry.object),
        );
  // Written synchronously, each folder made once: hundreds of small files
  // (a values file per chart and stack) cost ten times as much as promises.
  // A link among the kept files would need following: then the folder is written like the rest.
  const keep = kept !== undefined && !entries.some((entry) => entry.mode === "120000" && entry.path.startsWith(kept.prefix));
  if (kept !== undefined) kept.kept = keep;
  const made = new Set<string>();
  const folder = (path: string) => {
    if (made.has(path)) return;
    mkdirSync(path, { recursive: true });
    made.add(path);
  };
  const links: Entry[] = [];
  for (const entry of entries) {
    const target = join(root, entry.path);
    if (entry.type === "commit") {
      folder(target);
      continue;
    }
    if (entry.mode === "120000") {
      links.push(entry);
      continue;
    }
    const bytes = contents.get(entry.object) ?? Buffer.alloc(0);
    if (keep && entry.path.startsWith(kept.prefix)) {
      kept.files.set(entry.path, bytes);
      continue;
    }
    folder(dirname(target));
    writeFileSync(target, bytes, { mode: entry.mode === "100755" ? 0o755 : 0o644 });
  }
  for (const entry of links) {
    folder(dirname(join(root, entry.path)));
    symlinkSync((contents.get(entry.object) ?? Buffer.alloc(0)).toString("utf8"), join(root, entry.path));
  }
}

function parseTree(text: string): Entry[] {
  const out: Entry[] = [];
  for (const record of text.split("\0")) {
    if (record === "") continue;
    const tab = record.indexOf("\t");
    const [mode = "", type = "", object = ""] = record.slice(0, tab).split(" ");
    const path = record.slice(tab + 1);
    // git refuses such paths in a tree it writes; one crafted by hand is refused here too.
    if (path.startsWith("/") || path.split("/").some((part) => part === ".." || part === "." || part === "" || part === ".git")) {
      throw new ChartroomError("USAGE", `the commit's tree holds a path chartroom will not write: ${JSON.stringify(path)}`, {
        hint: "check the commit; git itself would refuse to check it out",
      });
    }
    out.push({ mode, type, object, path });
  }
  return out;
}

/** The raw bytes of many objects in one `git cat-file --batch` (no filters, no conversions). */
async function catFiles(top: string, objects: readonly string[]): Promise<Map<string, Buffer>> {
  const unique = [...new Set(objects)];
  const out = await gitBytes(top, ["cat-file", "--batch"], `${unique.join("\n")}\n`);
  const contents = new Map<string, Buffer>();
  let at = 0;
  while (at < out.length) {
    const end = out.indexOf(0x0a, at);
    const [object = "", type = "", size = ""] = out.subarray(at, end).toString("utf8").split(" ");
    if (type === "missing" || size === "")
      throw new ChartroomError("USAGE", `git has no object ${object} of the commit`, {
        hint: "the repository is incomplete (a shallow or partial clone?); fetch the base ref",
      });
    const length = Number(size);
    contents.set(object, Buffer.from(out.subarray(end + 1, end + 1 + length)));
    at = end + 1 + length + 1;
  }
  return contents;
}

async function gitBytes(top: string, args: string[], input?: string): Promise<Buffer> {
  const result = await runBinary(top, args, input);
  if (result.code !== 0)
    throw new ChartroomError("USAGE", `git ${args[0]} failed while taking the snapshot: ${result.stderr.trim().split("\n")[0] ?? ""}`, {
      hint: "check that git is installed and the repository is readable",
    });
  return result.stdout;
}

/** git's output as bytes: blobs are not necessarily UTF-8. */
async function runBinary(top: string, args: string[], input?: string): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  const result = await runProcess("git", [...SAFE, "-C", top, ...args], {
    timeoutMs: 120_000,
    input,
    env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0" },
    binary: true,
  });
  return { code: result.code, stdout: result.bytes ?? Buffer.alloc(0), stderr: result.stderr };
}
