import { isAbsolute, relative, resolve, sep } from "node:path";
import type { ChartSpec } from "../config/types.js";

type PostRenderer = NonNullable<ChartSpec["postRenderer"]>;

/**
 * A chart's post-renderer as helm must be given it. Its command is written
 * in the config as every path there is, from the platform's folder; helm
 * finds a relative command from the folder it runs in, which is the shell's
 * for the CLI (`--config` from elsewhere) and the program's for Pulumi (a
 * program in a subfolder). A bare name is left to helm's search of PATH.
 *
 * `from` undefined: an absolute path (the CLI's helm, on this machine only).
 * `from` a folder: a path relative to it, so a Pulumi program's inputs are
 * the same on every machine that checks the platform out.
 */
export function postRendererFor(renderer: PostRenderer, platformDir: string, from?: string): PostRenderer {
  const { command, args } = renderer;
  if (isAbsolute(command) || !/[\\/]/.test(command)) return { command, args };
  const absolute = resolve(platformDir, command);
  if (from === undefined) return { command: absolute, args };
  // Found there as written (a program in the platform's folder): the engine's inputs stay as they were.
  if (resolve(from, command) === absolute) return { command, args };
  const shown = relative(from, absolute).split(sep).join("/");
  return { command: shown.startsWith("../") ? shown : `./${shown}`, args };
}
