import { describe, expect, it } from "vitest";
import { rewriteRange, versionLiterals } from "../../src/config/rewrite.js";
import { ChartroomError } from "../../src/errors/index.js";
import { retargetRange } from "../../src/versions/retarget.js";

describe("a declared range moved to take a version", () => {
  it.each([
    ["1.0.1", "2.0.0", "2.0.0"],
    ["=1.0.1", "2.0.0", "=2.0.0"],
    ["v1.0.0", "2.0.0", "v2.0.0"],
    ["^1.2.0", "2.0.1", "^2.0.1"],
    ["^0.1.0", "0.2.0", "^0.2.0"],
    ["~1.0.0", "1.1.0", "~1.1.0"],
    ["~1.2", "2.0.3", "~2.0"],
    ["~> 1.2", "2.0.0", "~> 2.0"],
    ["^1", "2.5.0", "^2"],
    ["1", "2.5.0", "2"],
    ["1.0.x", "2.3.4", "2.3.x"],
    ["1.x", "2.3.4", "2.x"],
    ["1.X.x", "2.3.4", "2.X.x"],
    ["1.0.*", "2.3.4", "2.3.*"],
    [" ~1.0.0 ", "2.0.0", "~2.0.0"],
    ["1.0.0-rc.1", "1.0.0-rc.2", "1.0.0-rc.2"],
    ["^1.0.0", "2.0.0-rc.1", "^2.0.0-rc.1"],
    ["1.0.0", "2.0.0+build.5", "2.0.0+build.5"],
    ["~1.0", "2.0.0-rc.1", undefined],
    [">=1.0.0 <2.0.0", "2.0.0", undefined],
    [">=1.0.0, <2.0.0", "2.0.0", undefined],
    ["^1.0.0 || ^2.0.0", "3.0.0", undefined],
    ["1.0.0 - 2.0.0", "3.0.0", undefined],
    ["1.2.3@sha256:ab", "2.0.0", undefined],
    ["~1.0.0", "not-a-version", undefined],
    ["latest", "2.0.0", undefined],
  ])("%j taking %s → %j", (range, version, moved) => {
    expect(retargetRange(range, version)).toBe(moved);
  });

  it("takes a prerelease only when asked, as the range would", () => {
    expect(retargetRange("~1.0", "2.0.0-rc.1", true)).toBe("~2.0");
  });
});

describe("charts.<key>.version in the config's source", () => {
  const config = `import { defineConfig } from "chartroom";

// version: "~1.0.0" in a comment is no declaration
const shared = { version: "~1.0.0" };
export default defineConfig({
  repositories: { local: "file://./charts" },
  charts: {
    webapp: { repository: "local", version: "~1.0.0", namespace: "web" },
    "widgets-operator": {
      repository: 'local',
      /* the operator */ version: '1.0.x',
      release: { timeout: 600 },
      postRenderer: { command: "kustomize", args: ["build", \`dir\`] },
    },
    ledger: { repository: "local", namespace: "ledger", version: \`^0.1.0\` },
    other: { version: \`\${"~"}1.0.0\`, repository: "local", namespace: "x" },
  },
  stacks: { dev: { kubeVersion: "1.31.0", version: "~1.0.0" } },
});
`;

  it("changes exactly one string and not a byte more, keeping its quotes", () => {
    const webapp = rewriteRange(config, "chartroom.config.ts", "webapp", "~1.0.0", "~2.0.0");
    expect(webapp).toBe(config.replace('version: "~1.0.0", namespace: "web"', 'version: "~2.0.0", namespace: "web"'));
    expect(rewriteRange(config, "c.ts", "widgets-operator", "1.0.x", "1.1.x")).toBe(config.replace("version: '1.0.x'", "version: '1.1.x'"));
    expect(rewriteRange(config, "c.ts", "ledger", "^0.1.0", "^0.2.0")).toBe(config.replace("version: `^0.1.0`", "version: `^0.2.0`"));
  });

  it("finds only version literals directly in charts.<key>", () => {
    expect(versionLiterals(config, "webapp").map((literal) => literal.value)).toStrictEqual(["~1.0.0"]);
    expect(versionLiterals(config, "other")).toStrictEqual([]);
    expect(versionLiterals(config, "dev")).toStrictEqual([]);
    expect(versionLiterals(config, "missing")).toStrictEqual([]);
  });

  it.each([
    ["a version built from parts", "other", "~1.0.0"],
    ["a chart not written in the file", "missing", "~1.0.0"],
    ["a literal that says another range than the loaded config", "webapp", "^1.0.0"],
  ])("refuses %s, saying what to write", (_what, key, from) => {
    let error: unknown;
    try {
      rewriteRange(config, "chartroom.config.ts", key, from, "~2.0.0");
    } catch (caught) {
      error = caught;
    }
    expect(ChartroomError.isInstance(error)).toBe(true);
    const refused = error as ChartroomError;
    expect([refused.code, refused.hint.startsWith(`set charts.${key}.version to "~2.0.0" by hand`)]).toStrictEqual(["RANGE_NOT_MOVED", true]);
  });

  it("refuses a chart written twice", () => {
    const twice = `${config}\nexport const again = { charts: { webapp: { version: "~1.0.0" } } };\n`;
    expect(() => rewriteRange(twice, "c.ts", "webapp", "~1.0.0", "~2.0.0")).toThrow(/written as "~1.0.0"/);
  });

  it("reads strings with escapes and unclosed ones without losing its place", () => {
    const tricky = `const a = "say \\"charts\\": {";\nconst b = 'it\\'s';\nexport default { charts: { webapp: { version: "~1.0.0" } } };\nconst c = "unclosed\n`;
    expect(rewriteRange(tricky, "c.ts", "webapp", "~1.0.0", "~2.0.0")).toBe(tricky.replace('version: "~1.0.0"', 'version: "~2.0.0"'));
  });
});
