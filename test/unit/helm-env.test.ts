// helm renders with Go's collector off below a memory limit (render/run.ts
// says why), unless the user chose how Go collects.
import { afterEach, describe, expect, it } from "vitest";
import { helmEnv, type RunOptions } from "../../src/render/run.js";
import { helmTemplate } from "../../src/render/template.js";

describe("helm's environment for a render", () => {
  const saved = { GOGC: process.env.GOGC, GOMEMLIMIT: process.env.GOMEMLIMIT };
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it("turns the collector off below 128 MiB, and keeps the rest of the environment", () => {
    expect(helmEnv({ PATH: "/bin", HOME: "/h" })).toStrictEqual({ PATH: "/bin", HOME: "/h", GOGC: "off", GOMEMLIMIT: "128MiB" });
  });

  it.each([[{ GOGC: "50" }], [{ GOMEMLIMIT: "1GiB" }], [{ GOGC: "", PATH: "/bin" }]])("leaves what the user set alone: %j", (env) => {
    expect(helmEnv(env)).toStrictEqual(env);
  });

  it("is what helm template runs with", async () => {
    delete process.env.GOGC;
    delete process.env.GOMEMLIMIT;
    const seen: RunOptions[] = [];
    const run = async (_file: string, _args: string[], options: RunOptions) => {
      seen.push(options);
      return { code: 0, stdout: "", stderr: "" };
    };
    const request = {
      helm: { path: "/nowhere/helm", version: "v4.1.4", origin: "HELM_BIN" },
      chart: "c.tgz",
      label: "c",
      releaseName: "c",
      namespace: "c",
      apiVersions: [],
      values: [],
    };
    await helmTemplate(request, run);
    expect(seen[0]?.env?.GOGC).toBe("off");
    expect(seen[0]?.env?.GOMEMLIMIT).toBe("128MiB");
    expect(seen[0]?.env?.PATH).toBe(process.env.PATH);
  });
});
