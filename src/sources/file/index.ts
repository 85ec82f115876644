import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { RepositorySpec } from "../../config/types.js";
import { ChartroomError } from "../../errors/index.js";
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
    const index = parseIndex(await readFile(indexPath, "utf8"), indexPath);
    await writeCachedIndex(options.cacheRoot, cacheKey, validator, index);
    return index;
  }

  return indexSource(repository.url, loadIndex, async (version) => {
    const url = archiveUrl(version, base);
    if (!url.startsWith("file:")) {
      throw new ChartroomError("INDEX_INVALID", `${version.name} ${version.version} points outside the folder: ${url}`, {
        place: { file: indexPath, chart: version.name },
        hint: "a file:// repository must list archives by relative path",
      });
    }
    const data = await readFile(fileURLToPath(url)).catch(() => {
      throw new ChartroomError("HTTP_NOT_FOUND", `archive missing: ${fileURLToPath(url)}`, {
        place: { file: indexPath, chart: version.name },
        hint: "the index lists an archive that is not in the folder; rebuild the repository",
      });
    });
    return { data, url };
  });
}
