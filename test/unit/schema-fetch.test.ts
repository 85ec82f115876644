// When helm renders with its values-schema validation off (render/template.ts):
// only where it would fetch something. Checked against the real Helm 3.17.2 and
// 4.1.4: both fetch a `$ref` to a URL; Helm 4 fetches a meta-schema it does not
// carry, where Helm 3 reads the schema as draft-07.
import { describe, expect, it } from "vitest";
import { skipsSchemaValidation } from "../../src/render/template.js";

const helm = (version: string) => ({ path: "helm", version, origin: "PATH" as const });

describe("skipsSchemaValidation", () => {
  it.each([
    [undefined, "4.1.4", false],
    [undefined, "3.17.2", false],
    ["references", "3.17.2", true],
    ["references", "4.1.4", true],
    ["meta-schema", "3.17.2", false],
    ["meta-schema", "4.1.4", true],
    ["meta-schema", "5.0.0", true],
  ] as const)("%s with helm %s: %s", (schemaFetch, version, skips) => {
    expect(skipsSchemaValidation({ schemaFetch, helm: helm(version) })).toBe(skips);
  });
});
