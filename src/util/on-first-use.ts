import { createRequire } from "node:module";
import { withV8Defaults } from "./v8-tuning.js";

const require = createRequire(import.meta.url);

/**
 * One of Node's modules, required the first time it is used rather than when
 * chartroom starts: a run served from the cache opens no connection, starts
 * no process and unpacks no archive, and need not load what does (node:http
 * and node:tls with the 17 modules behind them, node:child_process,
 * node:zlib: ≈13 ms of a warm run).
 */
export function onFirstUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => {
    // With V8's own flags: Node compiles its modules through a code cache V8 refuses under the CLI's (util/v8-tuning.ts).
    loaded ??= withV8Defaults(() => require(name) as T);
    return loaded;
  };
}
