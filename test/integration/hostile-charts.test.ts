// Charts written to attack the one who reviews them: schemas that reach out
// to the network or the disk, patterns that backtrack for minutes, enums of
// hundreds of thousands of values, schemas nested thousands deep. Each run
// ends quickly with a finding or a coded error, and reaches no host.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { addChart, CONFIGMAP } from "../helpers/hostile.js";
import { countingListener } from "../helpers/listener.js";
import { helm } from "../helpers/helm.js";
import { cli, copyPlatform } from "../helpers/platform.js";
import { mkdir } from "node:fs/promises";

async function platformWith(schema: string, defaults = "name: ok\n"): Promise<string> {
  const dir = await copyPlatform();
  await addChart(dir, "hostile", { "values.yaml": defaults, "values.schema.json": schema, "templates/cm.yaml": CONFIGMAP });
  return dir;
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

describe("a chart whose schema references URLs and files", () => {
  it.each([[4], [3]] as const)(
    "is rendered and locked without a request (helm %i), and check names each reference",
    async (major) => {
      const listener = await countingListener("127.0.0.1");
      try {
        const schema = JSON.stringify({
          type: "object",
          properties: {
            name: { $ref: `${listener.origin}/name.json` },
            other: { $ref: "file:///etc/hostname" },
            // Helm 4 fetches a meta-schema it does not carry, at any depth.
            meta: { $schema: `${listener.origin}/meta.json`, type: "string" },
          },
        });
        const dir = await platformWith(schema);
        const env = major === 3 ? { HELM_BIN: await helm(3) } : {};
        const locked = await cli(dir, ["lock", "hostile"], env);
        expect(locked.errors).toBe("");
        const rendered = await cli(dir, ["render", "hostile", "--stack", "dev"], env);
        expect(rendered.exitCode, rendered.errors).toBe(0);
        expect(rendered.output).toContain("name: ok");
        const checked = await cli(dir, ["check", "hostile", "--stack", "dev"], env);
        expect(checked.exitCode).toBe(2);
        const findings = checked.output.split("\n").filter((line) => line.includes("(schema-external-ref)"));
        expect(findings).toStrictEqual([
          `warning (chart default) hostile [dev] values.schema.json#/properties/meta/$schema: the chart's values.schema.json references "${listener.origin}/meta.json": it names a meta-schema Helm does not carry, which Helm 4 would fetch; chartroom never fetches one, and reads the schema without it (schema-external-ref)`,
          `error (chart default) hostile [dev] values.schema.json#/properties/name/$ref: the chart's values.schema.json references "${listener.origin}/name.json": it points outside the schema file; chartroom never fetches a schema's references (Helm would) (schema-external-ref)`,
          `error (chart default) hostile [dev] values.schema.json#/properties/other/$ref: the chart's values.schema.json references "file:///etc/hostname": it points outside the schema file; chartroom never fetches a schema's references (Helm would) (schema-external-ref)`,
        ]);
        const typed = await cli(dir, ["types"], env);
        expect(typed.exitCode, typed.errors).toBe(0);
        expect(listener.connections()).toBe(0);
      } finally {
        await listener.close();
      }
    },
    120_000,
  );

  // Helm 4 fetches the meta-schema a `$schema` names unless it carries it (Helm 3 reads the schema as draft-07).
  it.each([[4], [3]] as const)(
    "whose $schema names a meta-schema Helm does not carry is rendered without a request (helm %i), and validated as draft-07",
    async (major) => {
      const listener = await countingListener("127.0.0.1");
      try {
        const schema = JSON.stringify({ $schema: `${listener.origin}/meta.json`, type: "object", properties: { name: { type: "string" } } });
        const dir = await platformWith(schema);
        const env = major === 3 ? { HELM_BIN: await helm(3) } : {};
        expect((await cli(dir, ["lock", "hostile"], env)).errors).toBe("");
        const rendered = await cli(dir, ["render", "hostile", "--stack", "dev"], env);
        expect(rendered.exitCode, rendered.errors).toBe(0);
        await mkdir(join(dir, "values", "hostile"), { recursive: true });
        await writeFile(join(dir, "values", "hostile", "values.yaml"), "name: 5\n");
        const checked = await cli(dir, ["check", "hostile", "--stack", "dev"], env);
        expect(checked.exitCode).toBe(2);
        const lines = checked.output.split("\n").filter((line) => line.includes("hostile [dev]"));
        expect(lines.map((line) => line.replace(/ hostile \[dev\].*\(/, " … ("))).toStrictEqual([
          "error values/hostile/values.yaml:1:1 … (type)",
          "warning (chart default) … (schema-external-ref)",
          // Helm 3 validates the values itself, as draft-07; Helm 4 is not asked to.
          ...(major === 3 ? ["error … (render-failed)"] : []),
        ]);
        expect(listener.connections()).toBe(0);
      } finally {
        await listener.close();
      }
    },
    120_000,
  );
});

describe("a chart's schema that would make a run hang or crash", () => {
  it("checks a backtracking pattern against 30 a's and a ! in under a second (RE2 semantics, as Helm)", async () => {
    const dir = await platformWith(JSON.stringify({ type: "object", properties: { name: { type: "string", pattern: "^(a+)+$" } } }), "name: aaa\n");
    expect((await cli(dir, ["lock", "hostile"])).errors).toBe("");
    await mkdir(join(dir, "values", "hostile"), { recursive: true });
    await writeFile(join(dir, "values", "hostile", "values.yaml"), `name: ${"a".repeat(30)}!\n`);
    const { value: result, ms } = await timed(() => cli(dir, ["check", "hostile", "--stack", "dev"]));
    expect(result.output).toContain("hostile [dev] name: must match pattern");
    expect(ms).toBeLessThan(5000);
    // The chartroom side alone: values validated in well under a second.
    const { ms: again } = await timed(() => cli(dir, ["check", "hostile", "--stack", "dev"]));
    expect(again).toBeLessThan(2000);
  });

  it("reports a pattern RE2 refuses as a finding, as Helm refuses it", async () => {
    const dir = await platformWith(JSON.stringify({ type: "object", properties: { name: { type: "string", pattern: "^(?=o)ok$" } } }));
    const locked = await cli(dir, ["lock", "hostile"]);
    // Helm's Go regexp refuses the chart at render: a coded error, as helm says it.
    expect(locked.errors).toContain("error HELM_FAILED:");
    expect(locked.errors).not.toContain("INTERNAL");
  });

  it("checks values against a 300,000-value enum in under 2 s", async () => {
    const dir = await platformWith(
      JSON.stringify({ type: "object", properties: { name: { enum: ["ok", ...Array.from({ length: 300_000 }, (_, i) => `v${i}`)] } } }),
    );
    expect((await cli(dir, ["lock", "hostile"])).errors).toBe("");
    await mkdir(join(dir, "values", "hostile"), { recursive: true });
    await writeFile(join(dir, "values", "hostile", "values.yaml"), "name: nope\n");
    const { value: result, ms } = await timed(() => cli(dir, ["check", "hostile", "--stack", "dev"]));
    expect(result.output).toContain('hint: allowed: "ok", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", … (300001 in all)');
    expect(ms).toBeLessThan(4000);
  });

  it("refuses a schema nested 3,000 deep with a coded error, not a crash", async () => {
    const deep = `${'{"type":"object","properties":{"a":'.repeat(3000)}{"type":"string"}${"}}".repeat(3000)}`;
    const dir = await platformWith(deep);
    const { value: result, ms } = await timed(() => cli(dir, ["lock", "hostile"]));
    expect(result.errors).toContain("error ARCHIVE_INVALID: hostile-1.0.0: values.schema.json: the schema nests more than 256 levels deep");
    expect(ms).toBeLessThan(2000);
  });

  it("cuts a template's fail message of a megabyte to a few KB, in the error and in check", async () => {
    const dir = await copyPlatform();
    await addChart(dir, "hostile", {
      "values.yaml": "loud: false\n",
      "templates/cm.yaml": `{{ if .Values.loud }}{{ fail (repeat 1000000 "x") }}{{ end }}\n${CONFIGMAP}`,
    });
    expect((await cli(dir, ["lock", "hostile"])).errors).toBe("");
    await mkdir(join(dir, "values", "hostile"), { recursive: true });
    await writeFile(join(dir, "values", "hostile", "values.yaml"), "loud: true\n");
    const rendered = await cli(dir, ["render", "hostile", "--stack", "dev"]);
    expect(rendered.errors).toContain("error HELM_FAILED:");
    expect(rendered.errors).toContain("more characters)");
    expect(rendered.errors.length).toBeLessThan(8192);
    const checked = await cli(dir, ["check", "hostile", "--stack", "dev"]);
    expect(checked.output).toContain("(render-failed)");
    expect(checked.output.length).toBeLessThan(16384);
  });
});

describe("a chart that renders what the API server refuses", () => {
  it("reports an object rendered twice, and a name over 253 characters, as errors", async () => {
    const dir = await copyPlatform();
    const long = "n".repeat(260);
    await addChart(dir, "hostile", { "templates/cm.yaml": `${CONFIGMAP}---\n${CONFIGMAP}---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${long}\n` });
    expect((await cli(dir, ["lock", "hostile"])).errors).toBe("");
    const checked = await cli(dir, ["check", "hostile", "--stack", "dev"]);
    expect(checked.exitCode).toBe(2);
    expect(checked.output).toContain(
      "error ConfigMap web/hostile hostile [dev]: is rendered 2 times by this chart: only one of them can exist (duplicate-object)",
    );
    expect(checked.output).toContain(
      `hostile [dev] metadata.name: has a name of 260 characters; the API server refuses names over 253 for a ConfigMap (object-name)`,
    );
  });
});
