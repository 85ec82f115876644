// Output that cannot be written. A reader that stops early (`chartroom diff
// | head`, `| grep -q`) closes the pipe while chartroom still writes: helm
// and kubectl end there, killed by SIGPIPE (status 141), without a word.
// Output to a full disk is said in one coded line. Node ignores SIGPIPE, and
// the CLI printed an unhandled EPIPE or ENOSPC with its stack trace. The
// compiled CLI, as a user's shell runs it.
import { closeSync, existsSync, openSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { helm } from "../helpers/helm.js";
import { copyPlatform } from "../helpers/platform.js";
import { compiledCli, runGroup } from "../helpers/process.js";
import { tempDir } from "../helpers/tmp.js";

const COMMANDS = [[["--help"]], [["diff", "--help"]], [["render", "webapp", "--stack", "dev"]]];

async function env(): Promise<NodeJS.ProcessEnv> {
  return { CHARTROOM_CACHE: await tempDir(), HELM_BIN: await helm(4), NO_COLOR: "1" };
}

describe("output that cannot be written", () => {
  it.each(COMMANDS)(
    "a reader gone: %j ends quietly with SIGPIPE's status",
    async (argv) => {
      const result = await runGroup(process.execPath, [compiledCli(), ...argv], {
        cwd: await copyPlatform(),
        env: await env(),
        timeoutMs: 120_000,
        closeStdout: true,
      });
      expect([result.code, result.stderr]).toStrictEqual([141, ""]);
    },
    150_000,
  );

  it.runIf(existsSync("/dev/full")).each(COMMANDS)(
    "a full disk: %j says so in one coded line, exit 1",
    async (argv) => {
      const full = openSync("/dev/full", "w");
      try {
        const result = await runGroup(process.execPath, [compiledCli(), ...argv], {
          cwd: await copyPlatform(),
          env: await env(),
          timeoutMs: 120_000,
          stdoutFd: full,
        });
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(/^error FILE_UNWRITABLE: cannot write the output to stdout: ENOSPC: no space left on device, write\n {2}hint: [^\n]+\n$/);
      } finally {
        closeSync(full);
      }
    },
    150_000,
  );
});
