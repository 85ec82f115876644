// SIGINT and SIGTERM stop a run at once: the CLI as a real process, with a
// helm that never finishes (and starts a child of its own). The run must end
// within 2 s with 130 or 143, take helm's whole process group with it, and
// leave no temporary file, no writer lock and every user file unchanged.
import { spawn } from "node:child_process";
import { chmod, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { copyPlatform, ROOT } from "../helpers/platform.js";
import { tempDir } from "../helpers/tmp.js";

// Each helm (a lock renders several at once) records its own pid and its
// child's in a file of its own, written whole (a rename): one file shared by
// all of them was read half-written on a loaded machine.
const HANGING_HELM = `#!/bin/sh
if [ "$1" = version ]; then echo v3.18.6; exit 0; fi
sleep 300 &
echo "$$ $!" > "$MARK/helm-$$.tmp" && mv "$MARK/helm-$$.tmp" "$MARK/helm-$$"
wait
`;

/** The helms started so far: each one's pid and its child's. */
async function helms(mark: string): Promise<{ helm: number; child: number }[]> {
  const names = (await readdir(mark)).filter((name) => /^helm-\d+$/.test(name));
  const pairs = await Promise.all(names.map(async (name) => (await readFile(join(mark, name), "utf8")).trim().split(" ").map(Number)));
  return pairs.map(([helm = 0, child = 0]) => ({ helm, child }));
}

/** Whether a process still runs (a zombie waiting to be reaped does not count). */
async function running(pid: number): Promise<boolean> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  return status !== "" && !/^State:\s+Z/m.test(status);
}

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 50))) if (await check()) return true;
  return check();
}

describe("an interrupted run", () => {
  it.each([
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const)(
    "stops on %s within 2 s with exit %i, helm's process group killed, nothing left behind",
    async (signal, expected) => {
      const dir = await copyPlatform();
      const mark = await tempDir("chartroom-signal-mark-");
      const helm = join(mark, "helm");
      await writeFile(helm, HANGING_HELM);
      await chmod(helm, 0o755);
      const lockBefore = await readFile(join(dir, "charts.lock.json"), "utf8");
      const tsx = join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
      const child = spawn(process.execPath, [tsx, join(ROOT, "src", "cli", "main.ts"), "lock", "webapp"], {
        cwd: dir,
        env: { ...process.env, HELM_BIN: helm, MARK: mark, CHARTROOM_CACHE: join(dir, ".cache"), NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.on("exit", (code) => resolve({ code, at: Date.now() })));
      try {
        expect(await until(async () => (await helms(mark)).length > 0, 60_000), `helm never started: ${stderr}`).toBe(true);
        const [{ helm: helmPid, child: grandchild } = { helm: 0, child: 0 }] = await helms(mark);
        expect(await running(helmPid)).toBe(true);
        const sent = Date.now();
        child.kill(signal);
        const { code, at } = await exited;
        expect(at - sent, "stopped within 2 s").toBeLessThan(2000);
        expect(code).toBe(expected);
        expect(await until(async () => !(await running(helmPid)) && !(await running(grandchild)), 1000), "helm and its child are gone").toBe(true);
        const all = (await helms(mark)).flatMap((started) => [started.helm, started.child]);
        expect(await until(async () => (await Promise.all(all.map(running))).every((alive) => !alive), 1000), "every helm started is gone").toBe(true);
        expect((await readdir(tmpdir())).filter((name) => name.startsWith(`chartroom-${child.pid}-`))).toStrictEqual([]);
        expect(await readFile(join(dir, "charts.lock.json"), "utf8")).toBe(lockBefore);
        expect((await readdir(dir)).filter((name) => name.endsWith(".tmp"))).toStrictEqual([]);
        expect(await readdir(join(dir, ".chartroom")).catch(() => [])).not.toContain("writer.lock");
      } finally {
        // On a failure, nothing of this run is left running: the CLI's group, and each helm's (chartroom gives helm a group of its own).
        for (const pid of [child.pid as number, ...(await helms(mark).catch(() => [])).map((started) => started.helm)]) {
          try {
            process.kill(-pid, "SIGKILL");
          } catch {
            // gone already
          }
        }
      }
    },
    120_000,
  );
});
