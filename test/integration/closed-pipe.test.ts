// A reader that stops early (`chartroom diff | head`, `| grep -q`) closes
// the pipe while chartroom still writes. helm and kubectl end there, killed by
// SIGPIPE (status 141), without a word; Node ignores SIGPIPE, and the CLI
// printed an unhandled EPIPE with its stack trace. The compiled CLI, as a
// user's shell runs it, with its stdout's reading end closed before it writes.
import { describe, expect, it } from "vitest";
import { helm } from "../helpers/helm.js";
import { copyPlatform } from "../helpers/platform.js";
import { compiledCli, runGroup } from "../helpers/process.js";
import { tempDir } from "../helpers/tmp.js";

describe("a reader that closes the pipe early", () => {
  it.each([[["--help"]], [["diff", "--help"]], [["render", "webapp", "--stack", "dev"]]])(
    "ends %j quietly with SIGPIPE's status",
    async (argv) => {
      const dir = await copyPlatform();
      const result = await runGroup(process.execPath, [compiledCli(), ...argv], {
        cwd: dir,
        env: { CHARTROOM_CACHE: await tempDir(), HELM_BIN: await helm(4), NO_COLOR: "1" },
        timeoutMs: 120_000,
        closeStdout: true,
      });
      expect([result.code, result.stderr]).toStrictEqual([141, ""]);
    },
    150_000,
  );
});
