// The folder a build script of this repository prints (engine/build.sh,
// kube/build.sh): the test set-up builds it; here the script only hashes its
// inputs and prints the path. Once per script and process.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT } from "./platform.js";

const run = promisify(execFile);
const folders = new Map<string, Promise<string>>();

export function builtBy(script: string, timeoutMs: number): Promise<string> {
  let folder = folders.get(script);
  if (folder === undefined) {
    folder = run("bash", [join(ROOT, script)], { maxBuffer: 1 << 20, timeout: timeoutMs }).then(({ stdout }) => stdout.trim());
    folders.set(script, folder);
  }
  return folder;
}
