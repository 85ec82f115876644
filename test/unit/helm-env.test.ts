// helm renders with Go's collector off below a memory limit, unless the user
// chose how Go collects, and reads kubectl's smallest catalog of help texts
// unless it runs a program of the user's (render/run.ts says why).
import { afterEach, describe, expect, it } from "vitest";
import { HELP_LANGUAGE, helmEnv, type RunOptions } from "../../src/render/run.js";
import { helmTemplate } from "../../src/render/template.js";
import { templateRequestOf } from "../helpers/render-input.js";

describe("helm's environment for a render", () => {
  const saved = { GOGC: process.env.GOGC, GOMEMLIMIT: process.env.GOMEMLIMIT, LC_ALL: process.env.LC_ALL, LC_MESSAGES: process.env.LC_MESSAGES };
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it("turns the collector off below 128 MiB, names the help texts' language, and keeps the rest of the environment", () => {
    expect(helmEnv({ PATH: "/bin", HOME: "/h", LANG: "de_DE.UTF-8" })).toStrictEqual({
      PATH: "/bin",
      HOME: "/h",
      LANG: "de_DE.UTF-8",
      GOGC: "off",
      GOMEMLIMIT: "128MiB",
      LC_MESSAGES: HELP_LANGUAGE,
    });
  });

  it.each([[{ GOGC: "50" }], [{ GOMEMLIMIT: "1GiB" }], [{ GOGC: "", PATH: "/bin" }]])("leaves how Go collects to the user who set it: %j", (env) => {
    expect(helmEnv(env)).toStrictEqual({ ...env, LC_MESSAGES: HELP_LANGUAGE });
  });

  it("leaves the language alone under LC_ALL, which kubectl reads first", () => {
    expect(helmEnv({ LC_ALL: "C.UTF-8", LC_MESSAGES: "fr_FR.UTF-8" })).toStrictEqual({
      LC_ALL: "C.UTF-8",
      LC_MESSAGES: "fr_FR.UTF-8",
      GOGC: "off",
      GOMEMLIMIT: "128MiB",
    });
    expect(helmEnv({ LC_ALL: "" }).LC_MESSAGES).toBe(HELP_LANGUAGE);
  });

  it("leaves the language alone where helm runs a program of the user's", () => {
    expect(helmEnv({ LANG: "C.UTF-8" }, { runsUserProgram: true })).toStrictEqual({ LANG: "C.UTF-8", GOGC: "off", GOMEMLIMIT: "128MiB" });
  });

  it("is what helm template runs with", async () => {
    delete process.env.GOGC;
    delete process.env.GOMEMLIMIT;
    // A developer's own locale must not decide the outcome: no LC_ALL, and an LC_MESSAGES of theirs that only a post-renderer keeps.
    delete process.env.LC_ALL;
    process.env.LC_MESSAGES = "fr_FR.UTF-8";
    const seen: RunOptions[] = [];
    const run = async (_file: string, _args: string[], options: RunOptions) => {
      seen.push(options);
      return { code: 0, stdout: "", stderr: "" };
    };
    const request = templateRequestOf();
    await helmTemplate(request, run);
    await helmTemplate({ ...request, helm: { ...request.helm, version: "3.17.2" }, postRenderer: { command: "kustomize-wrapper", args: [] } }, run);
    expect(seen[0]?.env?.GOGC).toBe("off");
    expect(seen[0]?.env?.GOMEMLIMIT).toBe("128MiB");
    expect(seen[0]?.env?.PATH).toBe(process.env.PATH);
    expect(seen[0]?.env?.LC_MESSAGES).toBe(HELP_LANGUAGE);
    expect(seen[1]?.env?.GOGC).toBe("off");
    expect(seen[1]?.env?.LC_MESSAGES).toBe(process.env.LC_MESSAGES);
  });
});
