import { describe, expect, it } from "vitest";
import { nextLink, parseChallenge, sameOriginPath, registryLocation, repositoryName, tagToVersion, versionToTag } from "../../src/sources/oci/reference.js";

describe("OCI references", () => {
  it.each([
    ["oci://ghcr.io/acme/charts", false, { base: "https://ghcr.io", host: "ghcr.io", namespace: "acme/charts" }],
    ["oci://127.0.0.1:5000", true, { base: "http://127.0.0.1:5000", host: "127.0.0.1:5000", namespace: "" }],
    ["oci://registry.example.test/charts/", false, { base: "https://registry.example.test", host: "registry.example.test", namespace: "charts" }],
  ])("locates %s", (url, plainHttp, expected) => {
    expect(registryLocation(url, plainHttp)).toStrictEqual(expected);
  });

  it("names a chart's repository below the namespace", () => {
    expect(repositoryName(registryLocation("oci://r.test/a/b", false), "web")).toBe("a/b/web");
    expect(repositoryName(registryLocation("oci://r.test", false), "web")).toBe("web");
  });

  it("maps build metadata between tags and versions as Helm does", () => {
    expect(versionToTag("1.2.0+build.7")).toBe("1.2.0_build.7");
    expect(tagToVersion("1.2.0_build.7")).toBe("1.2.0+build.7");
  });

  it("parses a Bearer challenge", () => {
    expect(parseChallenge('Bearer realm="https://auth.example.test/token",service="registry.example.test",scope="repository:charts/web:pull"')).toStrictEqual({
      scheme: "bearer",
      params: { realm: "https://auth.example.test/token", service: "registry.example.test", scope: "repository:charts/web:pull" },
    });
    expect(parseChallenge('Basic realm="registry"').scheme).toBe("basic");
  });

  it.each([
    ['</v2/charts/web/tags/list?last=1.0.0&n=2>; rel="next"', "/v2/charts/web/tags/list?last=1.0.0&n=2"],
    ["<https://r.test/v2/x/tags/list?last=b>; rel=next", "https://r.test/v2/x/tags/list?last=b"],
    ['</v2/x/tags/list?last=b>; rel="prev"', undefined],
    [undefined, undefined],
  ])("reads the next page from %s", (header, expected) => {
    expect(nextLink(header)).toBe(expected);
  });

  it.each([
    ["/v2/x/tags/list?last=b", "/v2/x/tags/list?last=b"],
    ["https://r.test/v2/x/tags/list?last=b", "/v2/x/tags/list?last=b"],
    ["?last=b", "/v2/x/tags/list?last=b"],
    ["https://r.test:443/v2/x/tags/list", "/v2/x/tags/list"],
    ["https://evil.test/v2/x/tags/list?last=b", undefined],
    ["http://r.test/v2/x/tags/list", undefined],
    ["https://r.test:8443/v2/x/tags/list", undefined],
    ["//evil.test/v2/x", undefined],
    ["https://user:pw@evil.test/", undefined],
  ])("follows the next page %s only on the registry's own origin", (link, expected) => {
    expect(sameOriginPath(link, "https://r.test", "/v2/x/tags/list?n=2")).toBe(expected);
  });
});
