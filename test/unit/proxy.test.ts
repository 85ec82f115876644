import { describe, expect, it } from "vitest";
import type { ChartroomError } from "../../src/errors/index.js";
import { redact } from "../../src/errors/secrets.js";
import { bypassed, proxyFor, proxyHeaders } from "../../src/sources/proxy.js";

const url = (text: string) => new URL(text);

describe("which proxy a request takes (Go's httpproxy rules, as helm)", () => {
  it("takes HTTPS_PROXY for https and HTTP_PROXY for http, upper case before lower", () => {
    const env = { HTTPS_PROXY: "http://secure.proxy:3128", https_proxy: "http://lower.proxy:1", HTTP_PROXY: "http://plain.proxy:8080" };
    expect(proxyFor(url("https://charts.example.com/index.yaml"), env)?.host).toBe("secure.proxy:3128");
    expect(proxyFor(url("http://charts.example.com/index.yaml"), env)?.host).toBe("plain.proxy:8080");
    expect(proxyFor(url("https://charts.example.com/"), { https_proxy: "http://lower.proxy:1" })?.host).toBe("lower.proxy:1");
    // An https repository never falls back to HTTP_PROXY.
    expect(proxyFor(url("https://charts.example.com/"), { HTTP_PROXY: "http://plain.proxy:8080" })).toBeUndefined();
  });

  it("reads a bare host:port as an http proxy and refuses other schemes", () => {
    expect(proxyFor(url("https://charts.example.com/"), { HTTPS_PROXY: "proxy.corp:3128" })?.href).toBe("http://proxy.corp:3128/");
    const error = (() => {
      try {
        proxyFor(url("https://charts.example.com/"), { HTTPS_PROXY: "socks5://proxy.corp:1080" });
      } catch (e) {
        return e as ChartroomError;
      }
    })();
    expect(error?.code).toBe("PROXY_FAILED");
    expect(error?.message).toContain("socks5 proxy");
  });

  it("never proxies localhost or a loopback address", () => {
    const env = { HTTPS_PROXY: "http://proxy:3128", HTTP_PROXY: "http://proxy:3128" };
    for (const target of ["http://localhost:8080/", "https://127.0.0.1:5000/", "http://127.1.2.3/", "https://[::1]:443/"]) {
      expect(proxyFor(url(target), env), target).toBeUndefined();
    }
    expect(proxyFor(url("https://10.0.0.1/"), env)).toBeDefined();
  });

  it("bypasses the proxy for NO_PROXY's hosts: names with their subdomains, .names for subdomains only, IPs, ranges, ports, *", () => {
    expect(bypassed("charts.example.com", "443", "example.com")).toBe(true);
    expect(bypassed("example.com", "443", "example.com")).toBe(true);
    expect(bypassed("badexample.com", "443", "example.com")).toBe(false);
    expect(bypassed("example.com", "443", ".example.com")).toBe(false);
    expect(bypassed("a.example.com", "443", ".example.com")).toBe(true);
    expect(bypassed("a.example.com", "443", "*.example.com")).toBe(true);
    expect(bypassed("CHARTS.Example.COM", "443", "example.com")).toBe(true);
    expect(bypassed("charts.example.com", "443", "example.com:8443")).toBe(false);
    expect(bypassed("charts.example.com", "8443", "example.com:8443")).toBe(true);
    expect(bypassed("10.1.2.3", "443", "10.0.0.0/8")).toBe(true);
    expect(bypassed("11.1.2.3", "443", "10.0.0.0/8")).toBe(false);
    expect(bypassed("10.1.2.3", "443", "10.1.2.3")).toBe(true);
    expect(bypassed("fd00::5", "443", "fd00::/8")).toBe(true);
    expect(bypassed("fd00::5", "443", "[fd00::5]:443")).toBe(true);
    expect(bypassed("anything.test", "80", " foo.test , * ")).toBe(true);
    expect(bypassed("charts.example.com", "443", "")).toBe(false);
    // A name never matches an address, nor an address a name.
    expect(bypassed("10.1.2.3", "443", "example.com")).toBe(false);
    expect(proxyFor(url("https://charts.example.com/"), { HTTPS_PROXY: "http://proxy:3128", no_proxy: "example.com" })).toBeUndefined();
  });

  it("sends the proxy's own credentials to the proxy, and masks them everywhere", () => {
    const proxy = proxyFor(url("https://charts.example.com/"), { HTTPS_PROXY: "http://ci-user:pr%40xy-pass-9@proxy.corp:3128" })!;
    const header = proxyHeaders(proxy)["proxy-authorization"]!;
    expect(header).toBe(`Basic ${Buffer.from("ci-user:pr@xy-pass-9").toString("base64")}`);
    expect(redact(`failed with pr@xy-pass-9 and ${header}`)).not.toMatch(/pr@xy-pass-9|Y2ktdXNlcjpwckB4eS1wYXNzLTk/);
    expect(proxyHeaders(url("http://proxy.corp:3128"))).toStrictEqual({});
  });
});
