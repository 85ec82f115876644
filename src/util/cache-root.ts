import { homedir } from "node:os";
import { join, resolve } from "node:path";

// A module of its own: the CLI's loader (cli/boot.ts) needs the cache folder before anything else is loaded.

/** `CHARTROOM_CACHE`, else `$XDG_CACHE_HOME/chartroom`, else `~/.cache/chartroom`. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CHARTROOM_CACHE) return resolve(env.CHARTROOM_CACHE);
  const base = env.XDG_CACHE_HOME ? resolve(env.XDG_CACHE_HOME) : join(homedir(), ".cache");
  return join(base, "chartroom");
}

/** The cache's folder of renderings (render/render.ts); the CLI's loader reads whether it exists. */
export const RENDER_RECORDS = "render";
