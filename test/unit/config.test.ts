import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { normaliseConfig } from "../../src/config/normalise.js";
import { ChartroomError } from "../../src/errors/index.js";
import { tempDir } from "../helpers/tmp.js";

const FILE = "/platform/chartroom.config.ts";

function problems(written: unknown): string[] {
  try {
    normaliseConfig(written, FILE);
  } catch (error) {
    if (!ChartroomError.isInstance(error)) throw error;
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.place.file).toBe(FILE);
    return error.details.length > 0 ? error.details : [error.message.replace(/^invalid config: /, "")];
  }
  throw new Error("expected the config to be refused");
}

const base = () => ({
  repositories: {
    local: "file://./charts",
    remote: { url: "https://charts.example.test/stable", auth: { usernameEnv: "REPO_USER", passwordEnv: "REPO_PASS" } },
  },
  charts: { web: { repository: "local", version: "^1.0.0", namespace: "web" } } as Record<string, Record<string, unknown>>,
  stacks: { dev: { kubeVersion: "v1.31" } },
});

describe("normaliseConfig", () => {
  it("fills defaults and resolves file:// paths against the config folder", () => {
    const config = normaliseConfig(base(), FILE);
    expect(config.dir).toBe("/platform");
    expect(config.repositories.get("local")).toMatchObject({ kind: "file", url: "file://./charts", path: "/platform/charts" });
    expect(config.charts).toStrictEqual([
      {
        key: "web",
        repository: config.repositories.get("local"),
        chart: "web",
        range: "^1.0.0",
        namespace: "web",
        releaseName: "web",
        engine: "auto",
        prerelease: false,
        dependsOn: [],
        dropHooks: false,
        helmRelease: false,
        skipCrds: false,
        retainCrds: true,
        pinImages: false,
        imageFields: [],
        release: { atomic: true, timeout: 600, maxHistory: 10, cleanupOnFail: true, createNamespace: false, waitForJobs: true },
      },
    ]);
    expect(config.stacks).toStrictEqual([{ name: "dev", kubeVersion: "1.31.0", apiVersions: [] }]);
  });

  it("names an unknown repository and suggests the nearest", () => {
    const written = base();
    written.charts.web = { repository: "locall", version: "^1", namespace: "web" };
    expect(problems(written)).toStrictEqual(['charts.web.repository: unknown repository "locall" (did you mean "local"?); declare it under repositories']);
  });

  it("refuses a range that is not semver", () => {
    const written = base();
    written.charts.web = { repository: "local", version: "latest-and-greatest", namespace: "web" };
    expect(problems(written)[0]).toMatch(/^charts\.web\.version: "latest-and-greatest" is not a version constraint/);
  });

  it("refuses two releases with one name in one namespace", () => {
    const written = base();
    written.charts.api = { repository: "local", chart: "web", version: "^1", namespace: "web", releaseName: "web" };
    expect(problems(written)[0]).toContain('release "web" in namespace "web" is also charts.api');
  });

  it("catches a misspelled key with a suggestion", () => {
    const written = base();
    written.charts.web = { repository: "local", verison: "^1", version: "^1", namespace: "web" };
    expect(problems(written)[0]).toContain('charts.web.verison: unknown key (did you mean "version"?)');
  });

  it("refuses a literal secret where an environment variable name belongs, without echoing it", () => {
    const written = base();
    written.repositories.remote.auth = { usernameEnv: "REPO_USER", passwordEnv: "hunter2!secret" };
    const found = problems(written);
    expect(found[0]).toContain("repositories.remote.auth.passwordEnv: expected the NAME of an environment variable");
    expect(found.join()).not.toContain("hunter2");
  });

  it("refuses credentials inside a repository URL", () => {
    const written = base();
    written.repositories.remote = { url: "https://me:pw@charts.example.test", auth: { usernameEnv: "A", passwordEnv: "B" } };
    expect(problems(written)[0]).toContain("credentials in the URL are not allowed");
  });

  it("lists every problem at once", () => {
    const written = base();
    written.charts.web = { repository: "nope", version: "", namespace: "Bad_NS", engine: "helm", dependsOn: ["ghost"] };
    const found = problems(written);
    expect(found.map((line) => line.split(":")[0])).toStrictEqual([
      "charts.web.repository",
      "charts.web.version",
      "charts.web.namespace",
      "charts.web.engine",
      "charts.web.dependsOn",
    ]);
  });

  it("splits a digest pin from its exact version", () => {
    const written = base();
    const digest = `sha256:${"a".repeat(64)}`;
    written.charts.web = { repository: "local", version: `1.2.3@${digest}`, namespace: "web" };
    expect(normaliseConfig(written, FILE).charts[0]).toMatchObject({ range: "1.2.3", digest });
  });

  it.each([
    [`^1.2.3@sha256:${"a".repeat(64)}`, "a digest pin needs an exact version"],
    ["1.2.3@sha1:abc", "is not a digest"],
  ])("refuses the digest pin %s", (version, message) => {
    const written = base();
    written.charts.web = { repository: "local", version, namespace: "web" };
    expect(problems(written)[0]).toContain(message);
  });

  it("reads image registries by host, an endpoint asked instead of the host, pinImages for all charts or one", () => {
    const config = normaliseConfig(
      {
        ...base(),
        registries: {
          "ghcr.io": { auth: { tokenEnv: "GHCR_TOKEN" } },
          "registry.example.test": { endpoint: "http://127.0.0.1:5000" },
        },
        pinImages: true,
        charts: {
          web: { repository: "local", version: "^1.0.0", namespace: "web", imageFields: [{ kind: "Prometheus", path: "spec.image" }] },
          db: { repository: "local", version: "^1.0.0", namespace: "db", pinImages: false },
        },
        stacks: { prod: { kubeVersion: "1.31.0", production: true } },
      },
      FILE,
    );
    expect([...config.registries.entries()]).toStrictEqual([
      [
        "ghcr.io",
        {
          name: "ghcr.io",
          kind: "oci",
          url: "oci://ghcr.io",
          plainHttp: false,
          timeoutMs: 30000,
          declaredAt: 'registries."ghcr.io"',
          auth: { tokenEnv: "GHCR_TOKEN" },
        },
      ],
      [
        "registry.example.test",
        {
          name: "registry.example.test",
          kind: "oci",
          url: "oci://127.0.0.1:5000",
          plainHttp: true,
          timeoutMs: 30000,
          declaredAt: 'registries."registry.example.test"',
        },
      ],
    ]);
    expect(config.charts.map((chart) => [chart.key, chart.pinImages, chart.imageFields])).toStrictEqual([
      ["db", false, []],
      ["web", true, [{ kind: "Prometheus", path: "spec.image" }]],
    ]);
    expect(config.stacks[0]?.production).toBe(true);
  });

  it("refuses a registry that is not a host, an endpoint with a path or credentials, and an image field that is not a dotted path", () => {
    expect(
      problems({
        ...base(),
        registries: {
          "https://ghcr.io": {},
          "quay.io": { endpoint: "https://user:pw@mirror.test" },
          "a.test": { endpoint: "https://m.test/v2" },
          "b.test": { mirror: "x" },
        },
        charts: { web: { repository: "local", version: "^1.0.0", namespace: "web", imageFields: [{ kind: "X", path: "spec..image" }] } },
      }),
    ).toStrictEqual([
      'charts.web.imageFields.0.path: expected a dotted path like "spec.image"',
      'registries."https://ghcr.io": "https://ghcr.io" is not a registry host (like "ghcr.io" or "127.0.0.1:5000")',
      'registries."quay.io".endpoint: expected an address like https://mirror.example.com (no path, no credentials)',
      'registries."a.test".endpoint: expected an address like https://mirror.example.com (no path, no credentials)',
      'registries."b.test".mirror: unknown key; allowed: endpoint, auth, caFile, plainHttp, timeoutMs',
    ]);
  });

  it("refuses a dependsOn cycle", () => {
    const written = base();
    written.charts.web = { repository: "local", version: "^1", namespace: "web", dependsOn: ["db"] };
    written.charts.db = { repository: "local", version: "^1", namespace: "db", dependsOn: ["web"] };
    expect(problems(written)[0]).toBe("charts.db.dependsOn: cycle db → web → db; remove one of these dependencies");
  });

  it("checks release settings", () => {
    const written = base();
    written.charts.web = { repository: "local", version: "^1", namespace: "web", release: { timeout: "soon", atomik: true } };
    expect(problems(written)).toStrictEqual([
      "charts.web.release.timeout: expected a number ≥ 0",
      'charts.web.release.atomik: unknown key (did you mean "atomic"?); allowed: atomic, timeout, maxHistory, cleanupOnFail, createNamespace, waitForJobs',
    ]);
  });

  it("refuses an unknown repository scheme", () => {
    const written = base();
    (written.repositories as Record<string, unknown>).s3 = "s3://bucket/charts";
    expect(problems(written)[0]).toContain('repositories.s3.url: "s3://bucket/charts" must start with file://, https://, http:// or oci://');
  });
});

describe("loadConfig", () => {
  it("loads chartroom.config.ts from the folder, importing defineConfig from chartroom", async () => {
    const dir = await tempDir();
    await writeFile(
      join(dir, "chartroom.config.ts"),
      `import { defineConfig } from "chartroom";\nexport default defineConfig({ repositories: { r: "file://./charts" }, charts: { a: { repository: "r", version: "^1", namespace: "a" } } });\n`,
    );
    const config = await loadConfig({ cwd: dir });
    expect(config.charts.map((chart) => chart.key)).toStrictEqual(["a"]);
    expect(config.file).toBe(join(dir, "chartroom.config.ts"));
  });

  it("says where a syntax error is", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "chartroom.config.ts"), "export default {\n  repositories: { r: 'file://x' \n  charts: {}\n};\n");
    const error = await loadConfig({ cwd: dir }).catch((e: unknown) => e);
    expect(ChartroomError.isInstance(error) && error.code).toBe("CONFIG_LOAD_FAILED");
    expect((error as ChartroomError).place.file).toBe(join(dir, "chartroom.config.ts"));
  });

  it("explains how to point at a config when none is found", async () => {
    const dir = await tempDir();
    const error = (await loadConfig({ cwd: dir }).catch((e: unknown) => e)) as ChartroomError;
    expect(error.code).toBe("CONFIG_NOT_FOUND");
    expect(error.hint).toContain("--config");
  });

  it("takes an explicit --config file", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "platform.ts"), `export default { repositories: {}, charts: {} };\n`);
    expect((await loadConfig({ cwd: dir, file: "platform.ts" })).charts).toStrictEqual([]);
  });
});
