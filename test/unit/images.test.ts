import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { pinManifests } from "../../src/deploy/post-render.js";
import { imageChanges } from "../../src/diff/images.js";
import { imagesOf, podSpecPath } from "../../src/images/extract.js";
import { pinBody, pinObjects } from "../../src/images/pin.js";
import { canonicalName, parseImage, pinnedReference } from "../../src/images/reference.js";
import type { RenderedObject } from "../../src/model/objects.js";
import { apiLocation, imageRegistries } from "../../src/sources/oci/images.js";
import type { RepositorySpec } from "../../src/config/types.js";

const D1 = `sha256:${"a".repeat(64)}`;
const D2 = `sha256:${"b".repeat(64)}`;

function object(kind: string, body: Record<string, unknown>, extra: Partial<RenderedObject> = {}): RenderedObject {
  const group = kind === "Pod" ? "" : kind === "CronJob" || kind === "Job" ? "batch" : kind === "Widget" ? "example.test" : "apps";
  return { id: `${group}/${kind}/ns/x`, apiVersion: group === "" ? "v1" : `${group}/v1`, group, kind, namespace: "ns", name: "x", body, ...extra };
}

const pod = (containers: unknown[], more: Record<string, unknown> = {}) => ({ containers, ...more });

describe("parseImage (Docker's reference rules)", () => {
  it.each([
    ["nginx", "docker.io/library/nginx:latest"],
    ["nginx:1.27", "docker.io/library/nginx:1.27"],
    ["bitnami/redis:7", "docker.io/bitnami/redis:7"],
    ["index.docker.io/library/nginx:1", "docker.io/library/nginx:1"],
    ["ghcr.io/acme/api:1.4.2", "ghcr.io/acme/api:1.4.2"],
    ["localhost/acme:dev", "localhost/acme:dev"],
    ["127.0.0.1:5000/acme/api:1", "127.0.0.1:5000/acme/api:1"],
    ["registry.k8s.io/ingress-nginx/controller:v1.11.0", "registry.k8s.io/ingress-nginx/controller:v1.11.0"],
    [`quay.io/x/y@${D1}`, `quay.io/x/y@${D1}`],
    [`quay.io/x/y:1.0@${D1}`, `quay.io/x/y:1.0@${D1}`],
  ])("reads %s as %s", (written, canonical) => {
    const reference = parseImage(written);
    expect(reference === undefined ? undefined : canonicalName(reference)).toBe(canonical);
  });

  it.each([[""], [" nginx"], ["Nginx:1"], ["{{ .Values.image }}"], ["nginx@sha256:short"], ["repo:bad tag"], ["ghcr.io/"]])("refuses %j", (written) => {
    expect(parseImage(written)).toBeUndefined();
  });

  it("keeps the tag for people and replaces a digest when pinning", () => {
    expect(pinnedReference("ghcr.io/acme/api:1.4.2", D1)).toBe(`ghcr.io/acme/api:1.4.2@${D1}`);
    expect(pinnedReference(`ghcr.io/acme/api:1.4.2@${D2}`, D1)).toBe(`ghcr.io/acme/api:1.4.2@${D1}`);
  });
});

describe("imagesOf", () => {
  it("finds init, regular and ephemeral containers of a Pod, in that order, with their paths", () => {
    const uses = imagesOf(
      object("Pod", {
        spec: pod([{ name: "app", image: "a:1" }], { initContainers: [{ name: "init", image: "b:1" }], ephemeralContainers: [{ name: "dbg", image: "c:1" }] }),
      }),
    );
    expect(uses.map((use) => [use.container, use.at.join("."), use.written])).toStrictEqual([
      ["initContainers[init]", "spec.initContainers.0.image", "b:1"],
      ["containers[app]", "spec.containers.0.image", "a:1"],
      ["ephemeralContainers[dbg]", "spec.ephemeralContainers.0.image", "c:1"],
    ]);
  });

  it("reads a CronJob's job template, and a custom resource's field only when the config names it", () => {
    const cron = object("CronJob", { spec: { jobTemplate: { spec: { template: { spec: pod([{ name: "r", image: "r:1" }]) } } } } });
    expect(imagesOf(cron).map((use) => use.at.join("."))).toStrictEqual(["spec.jobTemplate.spec.template.spec.containers.0.image"]);
    const widget = object("Widget", { spec: { image: "w:2", nested: { image: "n:1" } } });
    expect(imagesOf(widget)).toStrictEqual([]);
    expect(imagesOf(widget, [{ kind: "Widget", path: "spec.image" }]).map((use) => use.written)).toStrictEqual(["w:2"]);
    expect(imagesOf(widget, [{ kind: "Other", path: "spec.image" }])).toStrictEqual([]);
  });

  it("names a container by index when it has no name, and reports a string that is no reference without parsing it", () => {
    const uses = imagesOf(object("Deployment", { spec: { template: { spec: pod([{ image: "{{ bad }}" }]) } } }));
    expect(uses.map((use) => [use.container, use.reference])).toStrictEqual([["containers[0]", undefined]]);
  });

  it("knows which kinds run pods", () => {
    expect(podSpecPath({ group: "", kind: "Pod" })).toStrictEqual(["spec"]);
    expect(podSpecPath({ group: "apps", kind: "StatefulSet" })).toStrictEqual(["spec", "template", "spec"]);
    expect(podSpecPath({ group: "", kind: "ConfigMap" })).toBeUndefined();
  });
});

describe("pinning", () => {
  const deployment = () =>
    object("Deployment", {
      metadata: { name: "x" },
      spec: {
        template: {
          spec: pod([
            { name: "a", image: "ghcr.io/a:1" },
            { name: "b", image: `ghcr.io/b@${D2}` },
            { name: "c", image: "ghcr.io/c:1" },
          ]),
        },
      },
    });

  it("rewrites each locked image, leaves digests given and says which it could not pin", () => {
    const original = deployment();
    const { objects, unpinned } = pinObjects([original], new Map([["ghcr.io/a:1", D1]]));
    const images = imagesOf(objects[0] as RenderedObject).map((use) => use.written);
    expect(images).toStrictEqual([`ghcr.io/a:1@${D1}`, `ghcr.io/b@${D2}`, "ghcr.io/c:1"]);
    expect(unpinned.map((entry) => [entry.use.written, entry.why])).toStrictEqual([["ghcr.io/c:1", "not-locked"]]);
    // The input is left alone, and what the pin does not change is shared.
    expect(imagesOf(original).map((use) => use.written)[0]).toBe("ghcr.io/a:1");
    expect((objects[0] as RenderedObject).body.metadata).toBe(original.body.metadata);
  });

  it("leaves hooks as rendered when the engine does not pin them, and says so", () => {
    const hook = { ...deployment(), hook: { events: ["pre-upgrade"], weight: 0, deletePolicies: [], test: false } };
    const { objects, unpinned } = pinObjects([hook], new Map([["ghcr.io/a:1", D1]]), { hooksUnpinned: true });
    expect(objects[0]).toBe(hook);
    expect(unpinned.map((entry) => entry.why)).toStrictEqual(["hook-under-release", "hook-under-release"]);
  });

  it("returns the same body when nothing is pinned (a transform then changes nothing)", () => {
    const body = { kind: "ConfigMap", data: { image: "a:1" } };
    expect(pinBody({ group: "", kind: "ConfigMap", body }, new Map([["a:1", D1]])).body).toBe(body);
  });
});

describe("imageChanges", () => {
  const side = (image: string, digests?: Map<string, string>) => ({
    objects: [object("Deployment", { spec: { template: { spec: pod([{ name: "a", image }]) } } })],
    ...(digests ? { digests } : {}),
  });

  it("shows a tag move with the digests locked for each side, and nothing when both agree", () => {
    expect(imageChanges(side("r:1", new Map([["r:1", D1]])), side("r:2"))).toStrictEqual([
      { object: "Deployment.apps ns/x", container: "containers[a]", change: "changed", from: { image: "r:1", digest: D1 }, to: { image: "r:2" } },
    ]);
    expect(imageChanges(side("r:1", new Map([["r:1", D1]])), side("r:1", new Map([["r:1", D1]])))).toStrictEqual([]);
  });

  it("shows a digest move under the same tag (a moved tag accepted)", () => {
    const [change] = imageChanges(side("r:1", new Map([["r:1", D1]])), side("r:1", new Map([["r:1", D2]])));
    expect(change).toMatchObject({ change: "changed", from: { digest: D1 }, to: { digest: D2 } });
  });

  it("shows images added and removed with a side", () => {
    expect(imageChanges(null, side("r:1")).map((change) => change.change)).toStrictEqual(["added"]);
    expect(imageChanges(side("r:1"), null).map((change) => change.change)).toStrictEqual(["removed"]);
  });
});

describe("pinManifests (the helm.v3.Release post-renderer)", () => {
  const settings = (digests: Record<string, string>) => ({ chart: "jobs", digests, fields: [] });
  const manifest = [
    "---",
    "# Source: jobs/templates/deployment.yaml",
    "apiVersion: apps/v1",
    "kind: Deployment",
    "metadata:",
    "  name: api",
    "spec:",
    "  template:",
    "    spec:",
    "      containers:",
    '        - image: "ghcr.io/acme/api:1.0"',
    "          name: api",
    "        - name: side",
    "          image: ghcr.io/acme/api:1.0 # same image twice",
    "---",
    "# Source: jobs/templates/cm.yaml",
    "apiVersion: v1",
    "kind: ConfigMap",
    "metadata: { name: c }",
    "data: { image: ghcr.io/acme/api:1.0 }",
    "",
  ].join("\n");

  it("rewrites image lines in place, keeping comments, quotes and every other document byte for byte", () => {
    const out = pinManifests(manifest, settings({ "ghcr.io/acme/api:1.0": D1 }));
    expect(out).toBe(
      manifest
        .replace('"ghcr.io/acme/api:1.0"', `"ghcr.io/acme/api:1.0@${D1}"`)
        .replace("image: ghcr.io/acme/api:1.0 #", `image: ghcr.io/acme/api:1.0@${D1} #`),
    );
  });

  it("writes a document whole when its layout hides an image from the line rewrite (flow style)", () => {
    const flow = "---\n# Source: x.yaml\napiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec: { containers: [{ name: a, image: 'r:1' }] }\n";
    const out = pinManifests(flow, settings({ "r:1": D1 }));
    expect(out).toContain("# Source: x.yaml");
    expect((load(out.split("---")[1] ?? "") as { spec: { containers: { image: string }[] } }).spec.containers[0]?.image).toBe(`r:1@${D1}`);
  });

  it("stops with LOCK_STALE when an image has no locked digest", () => {
    expect(() => pinManifests(manifest, settings({}))).toThrow(expect.objectContaining({ code: "LOCK_STALE" }));
  });
});

describe("which registry chartroom asks, and where", () => {
  const spec = (url: string, extra: Partial<RepositorySpec> = {}): RepositorySpec => ({
    name: "x",
    kind: "oci",
    url,
    plainHttp: false,
    timeoutMs: 1000,
    ...extra,
  });

  it("asks Docker Hub's API host for docker.io, an endpoint instead of its host, every other registry at itself", () => {
    expect(apiLocation("docker.io", spec("oci://docker.io")).base).toBe("https://registry-1.docker.io");
    expect(apiLocation("registry.example.test", spec("oci://127.0.0.1:5000", { plainHttp: true })).base).toBe("http://127.0.0.1:5000");
    expect(apiLocation("ghcr.io", spec("oci://ghcr.io")).base).toBe("https://ghcr.io");
  });

  it("lends an oci:// repository's settings to its host, after the registries the config declares", () => {
    const declared = new Map([["ghcr.io", spec("oci://ghcr.io", { name: "ghcr.io", declaredAt: 'registries."ghcr.io"' })]]);
    const repositories = [
      spec("oci://ghcr.io/acme/charts", { name: "acme" }),
      spec("oci://quay.io/org", { name: "quay" }),
      spec("https://charts.example.test", { kind: "http", name: "web" }),
    ];
    const registries = imageRegistries(declared, repositories);
    expect([...registries].map(([host, value]) => [host, value.name])).toStrictEqual([
      ["ghcr.io", "ghcr.io"],
      ["quay.io", "quay"],
    ]);
  });
});
