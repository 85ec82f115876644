import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { promisify } from "node:util";
import tar from "tar-stream";
import { ChartroomError } from "../errors/index.js";
import { makeTempDir, removeTempDir } from "../util/temp.js";

const run = promisify(execFile);

export interface Snapshot {
  /** Where the tree at the ref was written. */
  root: string;
  /** The folder inside `root` that matches `dir` in the working tree. */
  dir: string;
  remove(): Promise<void>;
}

/**
 * The tracked files of the repository holding `dir`, as they were at `ref`,
 * written to a temporary folder (the working tree is not touched).
 */
export async function snapshotAt(dir: string, ref: string): Promise<Snapshot> {
  const top = await git(dir, ["rev-parse", "--show-toplevel"], `${dir} is not inside a git repository`, "run --base from a git checkout");
  const commit = await git(dir, ["rev-parse", "--verify", `${ref}^{commit}`], `unknown git ref "${ref}"`, "pass a branch, tag or commit, e.g. --base origin/main");
  const { stdout } = await run("git", ["-C", top, "archive", "--format=tar", commit], { encoding: "buffer", maxBuffer: 1 << 30 });
  const root = await makeTempDir("base");
  try {
    await extract(stdout, root);
  } catch (error) {
    await removeTempDir(root);
    throw error;
  }
  return { root, dir: join(root, relative(top, dir)), remove: () => removeTempDir(root) };
}

async function git(dir: string, args: string[], problem: string, hint: string): Promise<string> {
  try {
    const { stdout } = await run("git", ["-C", dir, ...args]);
    return stdout.trim();
  } catch (error) {
    throw new ChartroomError("USAGE", problem, { hint, cause: error });
  }
}

/** Regular files only; git archive of our own repository has no hostile entries, but stay strict. */
async function extract(archive: Buffer, root: string): Promise<void> {
  const extractor = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extractor.on("entry", (header, stream, next) => {
      const name = header.name;
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: unknown) => chunks.push(chunk as Buffer));
      stream.on("end", () => {
        if (header.type !== "file" || name.startsWith("/") || name.split("/").includes("..")) return next();
        const target = join(root, name);
        mkdir(dirname(target), { recursive: true })
          .then(() => writeFile(target, Buffer.concat(chunks)))
          .then(() => next(), reject);
      });
      stream.on("error", reject);
    });
    extractor.on("finish", resolve);
    extractor.on("error", reject);
  });
  extractor.end(archive);
  await done;
}
