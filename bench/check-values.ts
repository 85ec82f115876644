import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { stringify } from "yaml";
import { inspectArchive } from "../src/chart/inspect.js";
import { packChart } from "../test/helpers/pack.js";
import { pinnedHelm } from "../src/render/helm-binary.js";
import { checkValues } from "../src/values/check.js";
import { parseValuesFile } from "../src/values/layers.js";
import { SchemaCache } from "../src/values/schema.js";
import { median, ms } from "./lib/serve.js";

const run = promisify(execFile);
const CHARTS = 50;
const STACKS = ["dev", "staging", "prod"];

/** A chart with a schema of ~120 properties over a few levels, distinct per chart. */
function chartFiles(index: number): Map<string, Buffer> {
  const properties: Record<string, unknown> = {};
  const defaults: Record<string, unknown> = {};
  for (let g = 0; g < 12; g++) {
    const group: Record<string, unknown> = {};
    const groupDefaults: Record<string, unknown> = {};
    for (let f = 0; f < 10; f++) {
      const kind = (g + f + index) % 4;
      group[`field${f}`] =
        kind === 0
          ? { type: "integer", minimum: 0 }
          : kind === 1
            ? { type: "string", enum: ["a", "b", "c"] }
            : kind === 2
              ? { type: "boolean" }
              : { type: "string", pattern: "^[a-z]+$" };
      groupDefaults[`field${f}`] = kind === 0 ? 1 : kind === 1 ? "a" : kind === 2 ? true : "abc";
    }
    properties[`group${g}`] = { type: "object", properties: group, additionalProperties: false };
    defaults[`group${g}`] = groupDefaults;
  }
  const schema = { $schema: "http://json-schema.org/draft-07/schema#", $id: `chart-${index}`, type: "object", properties };
  return new Map([
    ["Chart.yaml", Buffer.from(`apiVersion: v2\nname: chart-${index}\nversion: 1.0.0\n`)],
    ["values.yaml", Buffer.from(stringify(defaults))],
    ["values.schema.json", Buffer.from(JSON.stringify(schema))],
    [
      "templates/cm.yaml",
      Buffer.from("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  a: {{ .Values.group0.field1 | quote }}\n"),
    ],
  ]);
}

const stackValues = (stack: string) => `group0:\n  field0: 3\ngroup1:\n  field2: "${stack}"\ngroup3:\n  field5: true\n`;

export async function benchCheckValues(cacheRoot: string): Promise<Record<string, string | number>> {
  const work = await mkdtemp(join(tmpdir(), "chartroom-bench-check-"));
  try {
    const archives = await Promise.all(Array.from({ length: CHARTS }, (_, i) => packChart(`chart-${i}`, chartFiles(i), new Date(0))));
    const inspections = await Promise.all(archives.map((data, i) => inspectArchive(data, `chart-${i}`)));
    const layers = STACKS.map((stack) => [
      ...parseValuesFile("values.yaml", "group2:\n  field3: 7\n"),
      ...parseValuesFile(`${stack}.yaml`, stackValues(stack)),
    ]);
    let compilations = 0;
    const checkAll = async () => {
      const schemas = new SchemaCache();
      let findings = 0;
      for (const [i, inspection] of inspections.entries()) {
        for (const [s, stack] of STACKS.entries()) {
          const contract = {
            defaults: inspection.defaults,
            schema: inspection.schemaDocument,
            schemaDigest: inspection.schema?.digest,
            subcharts: inspection.subcharts,
          };
          findings += checkValues({ chart: `chart-${i}`, stack, contract, layers: layers[s] ?? [], schemas }).findings.length;
        }
      }
      compilations = schemas.compilations;
      return findings;
    };
    const time = await median(5, checkAll);
    const chart = join(work, "chart-0.tgz");
    await writeFile(chart, archives[0] as Buffer);
    const valuesFile = join(work, "values.yaml");
    // Valid for chart-0, so lint does its full work and passes.
    await writeFile(valuesFile, "group0:\n  field0: 3\ngroup1:\n  field2: prod\n");
    const helm = (await pinnedHelm(4, cacheRoot)).path;
    const lint = await median(5, () => run(helm, ["lint", chart, "--values", valuesFile]));
    return {
      work: `${CHARTS} charts × ${STACKS.length} stacks, each chart its own draft-07 schema of 120 properties`,
      "check (coalesce, validate, unknown keys) of all 150 pairs": ms(time),
      "schema compilations": `${compilations} (one per chart)`,
      "one helm lint of one such chart": ms(lint),
      "check of 150 pairs / one helm lint": Number((time / lint).toFixed(3)),
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
