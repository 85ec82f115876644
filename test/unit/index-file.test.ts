import { describe, expect, it } from "vitest";
import { ChartroomError } from "../../src/errors/index.js";
import { parseIndex } from "../../src/sources/helm-index/file.js";

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
