// Shell completion in the real shells (Debian's bash, zsh and fish): the
// script `chartroom completion <shell>` prints is sourced, and completing
// commands, options, formats, stack names and chart keys of the example
// platform gives what a user would pick from.
import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, copyPlatformTo } from "../helpers/platform.js";
import { compiledCli } from "../helpers/process.js";
import { tempDir } from "../helpers/tmp.js";

const run = promisify(execFile);
let work: string;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "chartroom-completion-"));
  dir = await copyPlatformTo(join(work, "platform"));
  // `chartroom` on PATH, as an installed package puts it: the script calls it for chart and stack names.
  const bin = join(work, "bin");
  await mkdir(bin);
  await writeFile(join(bin, "chartroom"), `#!/bin/sh\nexec "${process.execPath}" "${compiledCli()}" "$@"\n`);
  await chmod(join(bin, "chartroom"), 0o755);
  env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, CHARTROOM_CACHE: join(work, "cache") };
});

afterAll(() => rm(work, { recursive: true, force: true }));

/** What bash offers for `words`, the last one being completed. */
async function bash(...words: string[]): Promise<string[]> {
  const list = words.map((word) => `"${word}"`).join(" ");
  const script = `source <(chartroom completion bash); COMP_WORDS=(${list}); COMP_CWORD=${words.length - 1}; _chartroom; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const { stdout } = await run("bash", ["-c", script], { cwd: dir, env });
  return stdout.split("\n").filter(Boolean);
}

describe("chartroom completion", () => {
  it("completes in bash: commands, each command's options, formats, colours, stack names and chart keys", async () => {
    expect(await bash("chartroom", "di")).toStrictEqual(["diff"]);
    expect(await bash("chartroom", "co")).toStrictEqual(["completion"]);
    expect(await bash("chartroom", "diff", "--st")).toStrictEqual(["--stack"]);
    expect(await bash("chartroom", "diff", "--context")).toStrictEqual(["--context", "--context-lines"]);
    expect(await bash("chartroom", "check", "--str")).toStrictEqual(["--strict"]);
    expect(await bash("chartroom", "diff", "-o", "")).toStrictEqual(["text", "json", "markdown", "html", "yaml"]);
    expect(await bash("chartroom", "plan", "--color", "al")).toStrictEqual(["always"]);
    expect(await bash("chartroom", "diff", "--stack", "")).toStrictEqual(["dev", "prod"]);
    expect(await bash("chartroom", "diff", "w")).toStrictEqual(["webapp", "widgets-operator"]);
    expect(await bash("chartroom", "completion", "")).toStrictEqual(["bash", "zsh", "fish"]);
  });

  it("completes in zsh through its bash emulation", async () => {
    const script = `autoload -U compinit; compinit -u; source <(chartroom completion zsh); print -r -- \${_comps[chartroom]}; emulate -L ksh; COMP_WORDS=(chartroom diff w); COMP_CWORD=2; _chartroom; print -r -- "\${COMPREPLY[@]}"`;
    const { stdout } = await run("zsh", ["-c", script], { cwd: dir, env });
    const [registered, candidates = ""] = stdout.split("\n");
    expect(registered).toBe("_bash_complete -F _chartroom");
    // zsh filters by what was typed itself: the candidates hold the charts.
    expect(candidates.split(" ")).toEqual(expect.arrayContaining(["webapp", "widgets-operator"]));
  });

  it("completes in fish, with each command's description", async () => {
    const complete = async (line: string) =>
      (await run("fish", ["-c", `chartroom completion fish | source; complete -C ${JSON.stringify(line)}`], { cwd: dir, env })).stdout
        .split("\n")
        .filter(Boolean);
    expect(await complete("chartroom di")).toStrictEqual(["diff\tper-object changes of a version bump, a values edit or a branch"]);
    expect(await complete("chartroom diff --st")).toStrictEqual(["--stack"]);
    expect(await complete("chartroom diff --stack ")).toStrictEqual(["dev", "prod"]);
    expect(await complete("chartroom check -o m")).toStrictEqual(["markdown"]);
  });

  it("names nothing outside a platform, and refuses a shell it does not know", async () => {
    const outside = await tempDir();
    expect((await cli(outside, ["__complete", "charts"])).output).toBe("");
    const unknown = await cli(dir, ["completion", "powershell"]);
    expect([unknown.exitCode, unknown.errors.split("\n")[0]]).toStrictEqual([1, 'error USAGE: no completion for "powershell"']);
  });
});
