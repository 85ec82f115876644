import { stat } from "node:fs/promises";
import { isAbsolute, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { RepositorySpec } from "../../config/types.js";
import { ChartroomError } from "../../errors/index.js";
import { maxFileBytes, readFileFor, readFileSyncFor } from "../../util/fs.js";
import { parseIndex } from "../helm-index/file.js";
import { readCachedIndex, writeCachedIndex } from "../helm-index/cache.js";
import { archiveUrl, indexSource } from "../helm-index/source.js";
import type { ChartSource } from "../types.js";

/** A folder holding index.yaml and the archives it lists (`file://./charts`). */
export function fileSource(repository: RepositorySpec, options: { cacheRoot: string }): ChartSource {
  const folder = repository.path ?? fileURLToPath(repository.url);
  const indexPath = join(folder, "index.yaml");
  const base = pathToFileURL(`${folder}/`).toString();

  async function loadIndex() {
    const info = await stat(indexPath).catch(() => {
      throw new ChartroomError("INDEX_INVALID", `no index.yaml in ${folder}`, {
        place: { file: indexPath, url: repository.url },
        hint: "the folder must hold index.yaml and its archives (helm repo index <folder>)",
      });
    });
    const cacheKey = pathToFileURL(indexPath).toString();
    const cached = await readCachedIndex(options.cacheRoot, cacheKey);
    const validator = { mtimeMs: info.mtimeMs, size: info.size };
    if (cached !== null && "mtimeMs" in cached.validator && cached.validator.mtimeMs === validator.mtimeMs && cached.validator.size === validator.size) {
      return cached.index;
    }
    const text = (
      await readFileFor(indexPath, "the repository's index.yaml", {
        place: { url: repository.url },
        maxBytes: maxFileBytes(),
        hint: "the folder must hold index.yaml and its archives (helm repo index <folder>)",
      })
    ).toString("utf8");
    const index = parseIndex(text, indexPath);
    await writeCachedIndex(options.cacheRoot, cacheKey, validator, index);
    return index;
  }

  return indexSource(
    repository.url,
    loadIndex,
    async (version) => {
      const url = archiveUrl(version, base);
      const inside = url.startsWith("file:") && !relative(folder, fileURLToPath(url)).startsWith("..") && !isAbsolute(relative(folder, fileURLToPath(url)));
      if (!inside) {
        throw new ChartroomError("INDEX_INVALID", `${version.name} ${version.version} points outside the folder: ${url}`, {
          place: { file: indexPath, chart: version.name },
          hint: "a file:// repository must list archives by relative path",
        });
      }
      const data = await readFileFor(fileURLToPath(url), `the archive of ${version.name} ${version.version}`, {
        place: { file: indexPath, chart: version.name },
        hint: "the index lists an archive that is not in the folder; rebuild the repository",
      }).catch((error: unknown) => {
        if (ChartroomError.isInstance(error) && (error.cause as NodeJS.ErrnoException | undefined)?.code === "ENOENT") {
          throw new ChartroomError("HTTP_NOT_FOUND", `archive missing: ${fileURLToPath(url)}`, {
            place: { file: indexPath, chart: version.name },
            hint: "the index lists an archive that is not in the folder; rebuild the repository",
          });
        }
        throw error;
      });
      return { data, url };
    },
    async (version) => {
      const url = archiveUrl(version, base);
      if (!url.startsWith("file:")) return null;
      return (
        readFileSyncFor(`${fileURLToPath(url)}.prov`, `the provenance of ${version.name} ${version.version}`, {
          optional: true,
          place: { file: indexPath, chart: version.name },
        }) ?? null
      );
    },
  );
}
