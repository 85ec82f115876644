import { posix } from "node:path";
import { ChartroomError } from "../errors/index.js";
import { onFirstUse } from "../util/on-first-use.js";
import { tarEntries, type TarEntry } from "./tar.js";

/** Helm's own limits (pkg/chart/loader): 5 MiB a file, 100 MiB in all. */
export interface ArchiveLimits {
  maxFileBytes: number;
  maxTotalBytes: number;
}

export const DEFAULT_LIMITS: ArchiveLimits = { maxFileBytes: 5 * 1024 * 1024, maxTotalBytes: 100 * 1024 * 1024 };

/** Regular files of a chart archive, keyed by path below the chart's folder. */
export interface ChartFiles {
  /** The archive's top folder: the chart name. */
  root: string;
  files: Map<string, Buffer>;
}

/**
 * Read a chart archive into memory, refusing anything that could escape a
 * folder if it were extracted: `..` segments, absolute paths, links that
 * point outside the chart, device files and FIFOs. Nothing touches disk.
 */
export async function readChartArchive(data: Buffer, label: string, limits: ArchiveLimits = DEFAULT_LIMITS): Promise<ChartFiles> {
  const tarball = gunzip(data, label, limits);
  const files = new Map<string, Buffer>();
  let root: string | undefined;
  try {
    for (const entry of tarEntries(tarball)) {
      const path = checkEntry(entry, label);
      const top = path.split("/")[0] ?? "";
      if (root === undefined) root = top;
      else if (top !== root) throw unsafe(label, path, `every entry must be under one folder ("${root}/")`);
      if (entry.size > limits.maxFileBytes) throw tooLarge(label, `${path} is larger than ${limits.maxFileBytes} bytes`);
      const relative = path.slice(top.length + 1);
      if (entry.type === "file" && relative !== "") files.set(relative, entry.data());
    }
  } catch (error) {
    throw asArchiveError(error, label);
  }
  if (root === undefined) throw invalid(label, "the archive is empty");
  return { root, files };
}

const zlib = onFirstUse<typeof import("node:zlib")>("node:zlib");

function gunzip(data: Buffer, label: string, limits: ArchiveLimits): Buffer {
  try {
    return zlib().gunzipSync(data, { maxOutputLength: limits.maxTotalBytes });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ERR_BUFFER_TOO_LARGE" || /larger than|too large/i.test((error as Error).message)) {
      throw tooLarge(label, `it unpacks to more than ${limits.maxTotalBytes} bytes`);
    }
    throw invalid(label, `not a gzip archive or truncated (${(error as Error).message})`);
  }
}

function checkEntry(header: TarEntry, label: string): string {
  const name = header.name;
  if (name.startsWith("/") || /^[a-zA-Z]:[\\/]/.test(name) || name.includes("\\")) {
    throw unsafe(label, name, "absolute paths are not allowed");
  }
  if (name.split("/").includes("..")) throw unsafe(label, name, "`..` path segments are not allowed");
  // A type tar has no name for is read as tar-stream read it: checked as a file, kept out of the map.
  const type = header.type ?? "file";
  if (type === "symlink" || type === "link") {
    const target = header.linkname;
    const resolved = type === "symlink" ? posix.normalize(posix.join(posix.dirname(name), target)) : posix.normalize(target);
    if (target.startsWith("/") || resolved === ".." || resolved.startsWith("../")) {
      throw unsafe(label, name, `link to "${target}" escapes the chart`);
    }
  } else if (type !== "file" && type !== "directory") {
    throw unsafe(label, name, `entries of type ${type} are not allowed`);
  }
  return posix.normalize(name).replace(/\/$/, "");
}

function asArchiveError(error: unknown, label: string): ChartroomError {
  if (ChartroomError.isInstance(error)) return error;
  return invalid(label, `not a readable tar archive (${(error as Error).message})`);
}

function unsafe(label: string, entry: string, why: string): ChartroomError {
  return new ChartroomError("ARCHIVE_UNSAFE", `refusing ${label}: entry "${entry}": ${why}`, {
    place: { chart: label },
    hint: "the archive was crafted or damaged; nothing was extracted or written. Do not use this chart version",
  });
}

function invalid(label: string, why: string): ChartroomError {
  return new ChartroomError("ARCHIVE_INVALID", `cannot read ${label}: ${why}`, {
    place: { chart: label },
    hint: "the download may be truncated; run the command again, and if it persists check the repository",
  });
}

function tooLarge(label: string, why: string): ChartroomError {
  return new ChartroomError("ARCHIVE_TOO_LARGE", `refusing ${label}: ${why}`, {
    place: { chart: label },
    hint: "Helm refuses such archives too; check that this is really a chart",
  });
}
