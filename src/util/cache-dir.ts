import { statSync } from "node:fs";
import { ChartroomError } from "../errors/index.js";

export { cacheDir } from "./cache-root.js";

/** The cache folder, if it exists, must be a folder: a file there is said plainly, before anything is read. */
export function checkCacheFolder(path: string): void {
  let info: ReturnType<typeof statSync>;
  try {
    info = statSync(path, { throwIfNoEntry: false });
  } catch {
    // ENOTDIR: a file stands where a folder of its path should be, the same mistake.
    failNotFolder(path);
  }
  if (info !== undefined && !info.isDirectory()) failNotFolder(path);
}

function failNotFolder(path: string): never {
  throw new ChartroomError("FILE_UNWRITABLE", `the cache folder is not a folder: ${path}`, {
    place: { file: path },
    hint: "remove that file, or point CHARTROOM_CACHE at a folder",
  });
}
