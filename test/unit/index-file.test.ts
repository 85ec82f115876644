import { describe, expect, it } from "vitest";
import { ChartroomError } from "../../src/errors/index.js";
import { parseIndex, parseIndexFully, sortNewestFirst } from "../../src/sources/helm-index/file.js";

const INDEX = `apiVersion: v1
entries:
  app:
    - version: 1.10.0
      appVersion: 1.10
      digest: ABCDEF
      created: 2026-01-02T03:04:05.123456789Z
      urls: [app-1.10.0.tgz]
    - version: 1.9.0
      deprecated: true
      urls: ["https://cdn.example.test/app-1.9.0.tgz"]
    - version: not-semver
      urls: []
generated: 2026-01-01T00:00:00Z
`;

describe("parseIndex", () => {
  it("reads versions as text, newest first, with digest, created and deprecated", () => {
    expect(parseIndex(INDEX, "index.yaml")).toStrictEqual({
      app: [
        { name: "app", version: "1.10.0", appVersion: "1.10", digest: "sha256:abcdef", created: "2026-01-02T03:04:05.123456789Z", urls: ["app-1.10.0.tgz"] },
        { name: "app", version: "1.9.0", deprecated: true, urls: ["https://cdn.example.test/app-1.9.0.tgz"] },
        { name: "app", version: "not-semver", urls: [] },
      ],
    });
  });

  it("names the line of a YAML error", () => {
    try {
      parseIndex("apiVersion: v1\nentries:\n  app:\n    - version: [1\n", "http://repo/index.yaml");
      throw new Error("expected failure");
    } catch (error) {
      if (!ChartroomError.isInstance(error)) throw error;
      expect(error.code).toBe("INDEX_INVALID");
      expect(error.place.url).toBe("http://repo/index.yaml");
      expect(error.place.line).toBeGreaterThanOrEqual(4);
    }
  });

  it("refuses a document without entries", () => {
    expect(() => parseIndex("<html>not an index</html>", "x")).toThrow(/no `entries` map/);
  });
});

describe("the full parse of index.yaml at its edges", () => {
  it("leaves out empty appVersion, digest and created, URLs that are not text, and lists that are not lists", () => {
    const text = `apiVersion: v1\nentries:\n  app:\n    - version: 1.0.0\n      appVersion: ""\n      digest: ""\n      created: ""\n      urls: [a.tgz, {x: 1}, [b]]\n  broken: not-a-list\n  none: []\n`;
    expect(parseIndexFully(text, "i.yaml")).toStrictEqual({ app: [{ name: "app", version: "1.0.0", urls: ["a.tgz"] }], none: [] });
  });

  it("refuses a document without an entries map, naming the URL", () => {
    for (const text of ["apiVersion: v1\n", "- a\n", "entries: [a]\n", "just text\n"]) {
      let error: unknown;
      try {
        parseIndexFully(text, "https://repo.test/index.yaml");
      } catch (caught) {
        error = caught;
      }
      expect(ChartroomError.isInstance(error) && [error.code, error.message, error.place.url]).toStrictEqual([
        "INDEX_INVALID",
        "index.yaml has no `entries` map",
        "https://repo.test/index.yaml",
      ]);
    }
  });

  it("names the line and column of a YAML error, counted from 1", () => {
    let error: unknown;
    try {
      parseIndexFully("entries:\n  app: [\n", "i.yaml");
    } catch (caught) {
      error = caught;
    }
    expect(ChartroomError.isInstance(error) && [error.place.line, error.place.column]).toStrictEqual([3, 1]);
  });

  it("orders by precedence, then by build, newest first, with what is not a version last in index order", () => {
    const versions = ["1.0.0+a", "zeta", "1.0.0+b", "2.0.0-rc.1", "1.0.0", "alpha", "2.0.0"].map((version) => ({ name: "c", version, urls: [] }));
    expect(sortNewestFirst(versions).map((v) => v.version)).toStrictEqual(["2.0.0", "2.0.0-rc.1", "1.0.0+b", "1.0.0+a", "1.0.0", "zeta", "alpha"]);
  });
});
