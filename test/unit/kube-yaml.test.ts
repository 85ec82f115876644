import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { KUBERNETES_SCHEMA, kubernetesScalar } from "../../src/util/kube-yaml.js";
import { parseBlockYaml } from "../../src/util/fast-yaml.js";
import { parseManifest } from "../../src/render/manifest.js";

// What go-yaml v2 (through sigs.k8s.io/yaml, as the API server and kubectl
// decode manifests) makes of each plain scalar, as JSON.
const KUBERNETES: [string, unknown][] = [
  ["0755", 493],
  ["0644", 420],
  ["0o17", 15],
  ["0x1F", 31],
  ["0b101", 5],
  ["1_000", 1000],
  ["-0", 0],
  ["08", 8],
  ["1e3", 1000],
  [".5", 0.5],
  ["yes", true],
  ["On", true],
  ["y", true],
  ["NO", false],
  ["off", false],
  ["~", null],
  ["2024-01-01", "2024-01-01"],
  ["12:30", "12:30"],
  ["v1.2", "v1.2"],
  ["0755a", "0755a"],
];

describe("scalars as Kubernetes reads them (YAML 1.1)", () => {
  it.each(KUBERNETES)("%s", (text, value) => {
    expect(kubernetesScalar(text)).toStrictEqual(value);
    expect(load(`v: ${text}\n`, { schema: KUBERNETES_SCHEMA })).toStrictEqual({ v: value });
    expect(load(`v: "${text}"\n`, { schema: KUBERNETES_SCHEMA })).toStrictEqual({ v: text });
  });

  it("reads a rendered defaultMode as the API server does, on the fast path and the fallback", () => {
    const text =
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  volumes:\n    - name: s\n      secret: { secretName: s, defaultMode: 0755 }\n    - name: c\n      configMap:\n        name: c\n        defaultMode: 0644\n";
    const [pod] = parseManifest(text, "ns", "app");
    expect(pod?.body.spec).toMatchObject({ volumes: [{ secret: { defaultMode: 493 } }, { configMap: { defaultMode: 420 } }] });
    expect(parseBlockYaml("a: yes\nb: 0755\n")).toStrictEqual(load("a: yes\nb: 0755\n", { schema: KUBERNETES_SCHEMA }));
  });
});
