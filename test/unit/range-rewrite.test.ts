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

// version: "~1.0.0" in a comment is no declaration: charts: { webapp: { version: "~1.0.0" } }
/* nor in a block comment: charts: { webapp: { version: "~1.0.0" } } */
const shared = { version: "~1.0.0" };
const note = "charts: { webapp: { version: \\"~1.0.0\\" } }";
const template = \`\${ { charts: "}" } } version: "~1.0.0"\`;
export default defineConfig({
  repositories: { local: "file://./charts" },
  charts: {
    webapp: { repository: "local", version: "~1.0.0", namespace: "web", description: "a { or a } in a string" },
    "widgets-operator": {
      repository: 'local',
      /* the operator */ version: '1.0.x',
      release: { timeout: 600, version: "1.0.x" },
      postRenderer: { command: "kustomize", args: ["version", "~1.0.0", \`dir\`] },
    },
    ledger: { repository: "local", namespace: "ledger", version: \`^0.1.0\` },
    other: { version: \`\${"~"}1.0.0\`, repository: "local", namespace: "x" },
    escaped: { version: "~1.0.0\\u0000", repository: "local", namespace: "x" },
    wrapped: { version: ("~1.0.0"), repository: "local", namespace: "x" },
    'quoted-key': { 'version': "^2.0.0" },
  },
  stacks: { dev: { kubeVersion: "1.31.0", version: "~1.0.0" } },
});
`;

  it("changes exactly one string and not a byte more, keeping its quotes", () => {
    expect(rewriteRange(config, "c.ts", "webapp", "~1.0.0", "~2.0.0")).toBe(
      config.replace('version: "~1.0.0", namespace: "web"', 'version: "~2.0.0", namespace: "web"'),
    );
    expect(rewriteRange(config, "c.ts", "widgets-operator", "1.0.x", "1.1.x")).toBe(config.replace("version: '1.0.x'", "version: '1.1.x'"));
    expect(rewriteRange(config, "c.ts", "ledger", "^0.1.0", "^0.2.0")).toBe(config.replace("version: `^0.1.0`", "version: `^0.2.0`"));
    expect(rewriteRange(config, "c.ts", "quoted-key", "^2.0.0", "^3.0.0")).toBe(config.replace(`'version': "^2.0.0"`, `'version': "^3.0.0"`));
  });

  it("finds only plain version literals directly in charts.<key>, past comments, strings and template expressions", () => {
    const values = (key: string) => versionLiterals(config, key).map((literal) => [literal.value, literal.quote]);
    expect(values("webapp")).toStrictEqual([["~1.0.0", '"']]);
    expect(values("widgets-operator")).toStrictEqual([["1.0.x", "'"]]);
    expect(values("ledger")).toStrictEqual([["^0.1.0", "`"]]);
    for (const key of ["other", "escaped", "wrapped", "dev", "missing", "release"]) expect(values(key), key).toStrictEqual([]);
    const [literal] = versionLiterals(config, "webapp");
    expect(config.slice(literal?.start, literal?.end)).toBe('"~1.0.0"');
  });

  it.each([
    ["a version built from parts", "other", "~1.0.0", "~2.0.0", "not one string literal there"],
    ["a version with an escape", "escaped", "~1.0.0", "~2.0.0", "not one string literal there"],
    ["a chart not written in the file", "missing", "~1.0.0", "~2.0.0", "not one string literal there"],
    ["a literal that says another range than the loaded config", "webapp", "^1.0.0", "~2.0.0", "not one string literal there"],
    ["a range with a quote in it", "webapp", "~1.0.0", '~2.0.0"', "a range chartroom does not write"],
    ["a range with a dollar in it", "ledger", "^0.1.0", "${x}", "a range chartroom does not write"],
  ])("refuses %s, saying what to write", (_what, key, from, range, why) => {
    let error: unknown;
    try {
      rewriteRange(config, "chartroom.config.ts", key, from, range);
    } catch (caught) {
      error = caught;
    }
    expect(ChartroomError.isInstance(error)).toBe(true);
    const refused = error as ChartroomError;
    expect([refused.code, refused.message, refused.place, refused.hint]).toStrictEqual([
      "RANGE_NOT_MOVED",
      `cannot find one place where charts.${key}.version is written as "${from}" in chartroom.config.ts`,
      { file: "chartroom.config.ts", key: `charts.${key}.version` },
      `set charts.${key}.version to "${range}" by hand (it is ${why}), then run \`chartroom lock ${key}\``,
    ]);
  });

  it("refuses a chart written twice", () => {
    const twice = `${config}\nexport const again = { charts: { webapp: { version: "~1.0.0" } } };\n`;
    expect(() => rewriteRange(twice, "c.ts", "webapp", "~1.0.0", "~2.0.0")).toThrow(/written as "~1.0.0"/);
    let hint = "";
    try {
      rewriteRange(twice, "c.ts", "webapp", "~1.0.0", "~2.0.0");
    } catch (error) {
      hint = (error as ChartroomError).hint;
    }
    expect(hint).toContain("(it is written more than once)");
  });

  it("keeps its place across strings with escapes, unclosed strings and comments, and stops at the end of the text", () => {
    const tricky = `const a = "say \\"charts\\": {";\nconst b = 'it\\'s';\nexport default { charts: { webapp: { version: "~1.0.0" } } };\nconst c = "unclosed\nconst d = 1;`;
    expect(rewriteRange(tricky, "c.ts", "webapp", "~1.0.0", "~2.0.0")).toBe(tricky.replace('version: "~1.0.0"', 'version: "~2.0.0"'));
    for (const end of ["/* never closed", "// last line", "`never closed", "`${ never closed", '"never closed']) {
      expect(
        versionLiterals(`export default { charts: { webapp: { version: "~1.0.0" } } };\n${end}`, "webapp").map((literal) => literal.value),
        end,
      ).toStrictEqual(["~1.0.0"]);
    }
    const template = "const t = `a ${ `b ${ { x: '}' }.x } c` } d`;\nexport default { charts: { webapp: { version: `~1.0.0` } } };\n";
    expect(versionLiterals(template, "webapp").map((literal) => literal.value)).toStrictEqual(["~1.0.0"]);
    // Each of these would swallow the declaration if the scan lost its place in the line before.
    for (const before of [
      'const t = `${ "`" }`;',
      'const t = `${ { a: "x" } } tail`;',
      'const t = `${ `${ "}" }` }`;',
      'const s = "${ and $";',
      'const m = `a\nb "`;',
      "const t = `${ { a: 1 }.a + `x` }`;",
      'const t = `${ [`x`, "`"] }`;',
      'const c = "unclosed\n',
      "const t = `a{`;",
      "const t = `$a`;",
    ]) {
      const text = `${before} export default { charts: { webapp: { version: "~1.0.0" } } };\n`;
      expect(
        versionLiterals(text, "webapp").map((literal) => literal.value),
        before,
      ).toStrictEqual(["~1.0.0"]);
    }
    const multiline = "export default { charts: { webapp: { version: `~1.0.0`, notes: `line\nline` } } };\n";
    expect(versionLiterals(multiline, "webapp").map((literal) => literal.value)).toStrictEqual(["~1.0.0"]);
  });
});
