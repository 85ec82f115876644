// chartroom reads --set and --set-string as Helm does: each line of
// test/helpers/set-cases.ts (which the unit test holds chartroom's parser
// to) is given to real Helm 3, Helm 4 and the provider's Helm, and the
// values their templates see must be the table's.
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parseManifest } from "../../src/render/manifest.js";
import { mapLimit } from "../../src/util/pool.js";
import { engineBin } from "../helpers/engine.js";
import { helm } from "../helpers/helm.js";
import { SET_CASES, SET_REFUSALS } from "../helpers/set-cases.js";
import { tempDir } from "../helpers/tmp.js";

const run = promisify(execFile);

const HELMS: [string, () => Promise<string>][] = [
  ["Helm 3", () => helm(3)],
  ["Helm 4", () => helm(4)],
  ["the provider's Helm", async () => join(await engineBin(), "helm")],
];

/** A chart with no defaults whose one object holds `.Values` as base64 JSON. */
async function echoChart(dir: string): Promise<string> {
  const root = join(dir, "echo");
  await mkdir(join(root, "templates"), { recursive: true });
  await writeFile(join(root, "Chart.yaml"), "apiVersion: v2\nname: echo\nversion: 0.1.0\n");
  await writeFile(
    join(root, "templates", "dump.yaml"),
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dump\ndata:\n  values: {{ toJson .Values | b64enc | quote }}\n",
  );
  return root;
}

type Outcome = { values: unknown } | { refused: string };

async function template(binary: string, dir: string, chart: string, option: string, arg: string, below: Record<string, unknown> | undefined, n: number) {
  const args = ["template", "r", chart];
  if (below !== undefined) {
    const file = join(dir, `below-${n}.yaml`);
    await writeFile(file, JSON.stringify(below));
    args.push("-f", file);
  }
  args.push(`--${option}`, arg);
  const env = { ...process.env, HELM_CACHE_HOME: join(dir, ".h"), HELM_CONFIG_HOME: join(dir, ".h") };
  try {
    const { stdout } = await run(binary, args, { cwd: dir, env });
    const [object] = parseManifest(stdout, "default", "echo");
    const data = object?.body.data as { values: string };
    return { values: JSON.parse(Buffer.from(data.values, "base64").toString("utf8")) as unknown } satisfies Outcome;
  } catch (error) {
    return { refused: String((error as { stderr?: string }).stderr ?? error) } satisfies Outcome;
  }
}

describe.each(HELMS)("%s", (_name, binary) => {
  it("sees the values the table gives for every --set and --set-string line", async () => {
    const dir = await tempDir();
    const chart = await echoChart(dir);
    const path = await binary();
    const outcomes = await mapLimit(SET_CASES, 4, (one, n) => template(path, dir, chart, one.option, one.arg, one.below, n));
    const wrong = SET_CASES.flatMap((one, n) => {
      const outcome = outcomes[n] as Outcome;
      return "values" in outcome && JSON.stringify(sortKeys(outcome.values)) === JSON.stringify(sortKeys(one.values))
        ? []
        : [{ arg: one.arg, helm: outcome, table: one.values }];
    });
    expect(wrong).toStrictEqual([]);
  });

  it("refuses the lines chartroom refuses (Helm 4 ignores an index the text ends in)", async () => {
    const dir = await tempDir();
    const chart = await echoChart(dir);
    const path = await binary();
    const outcomes = await mapLimit(SET_REFUSALS, 4, (one, n) => template(path, dir, chart, one.option, one.arg, one.below, n));
    const accepted = SET_REFUSALS.flatMap((one, n) => ("refused" in (outcomes[n] as Outcome) ? [] : [one.arg]));
    expect(accepted).toStrictEqual(_name === "Helm 4" ? ["a[1"] : []);
  });
});

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}
