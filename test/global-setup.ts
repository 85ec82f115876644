// Marks every process the tests start (CHARTROOM_TEST_RUN, inherited), and
// after the run finds any still running: each is named, killed, and written
// to .cache/test/leftovers.json, which .ci/run counts as a failure.
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const MARK = "CHARTROOM_TEST_RUN";
const REPORT = resolve(import.meta.dirname, "..", ".cache", "test", "leftovers.json");

interface Leftover {
  pid: number;
  command: string;
}

function marked(run: string): Leftover[] {
  const out: Leftover[] = [];
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const environ = readFileSync(join("/proc", name, "environ"), "latin1").split("\0");
      if (!environ.includes(`${MARK}=${run}`)) continue;
      out.push({
        pid,
        command: readFileSync(join("/proc", name, "cmdline"), "latin1")
          .split("\0")
          .join(" ")
          .trim()
          .slice(0, 200),
      });
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

export default function setup(): () => Promise<void> {
  const run = randomBytes(6).toString("hex");
  process.env[MARK] = run;
  return async () => {
    // Workers have exited; give what they stopped a moment to finish exiting.
    let left = marked(run);
    for (let i = 0; i < 20 && left.length > 0; i++) {
      await new Promise((done) => setTimeout(done, 250));
      left = marked(run);
    }
    mkdirSync(resolve(REPORT, ".."), { recursive: true });
    writeFileSync(REPORT, `${JSON.stringify(left, null, 2)}\n`);
    if (left.length === 0) return;
    for (const { pid } of left) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone
      }
    }
    process.exitCode = 1;
    throw new Error(`processes the tests started were still running after them (killed now):\n${left.map((p) => `  ${p.pid} ${p.command}`).join("\n")}`);
  };
}
