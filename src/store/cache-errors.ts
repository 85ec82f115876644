import { ChartroomError } from "../errors/index.js";

/** A write into the cache that failed: the same error, with the hint that fits a cache (it can live elsewhere). */
export function cacheError(error: unknown): unknown {
  if (!ChartroomError.isInstance(error) || error.code !== "FILE_UNWRITABLE") return error;
  return new ChartroomError("FILE_UNWRITABLE", error.message, {
    place: error.place,
    hint: `${error.hint}, or point CHARTROOM_CACHE at a folder that is writable`,
    cause: error.cause,
  });
}
