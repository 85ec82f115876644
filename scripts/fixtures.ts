import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { parse, stringify } from "yaml";
import { packChart } from "../test/helpers/pack.js";
import { sha256Hex } from "../src/util/hash.js";

/**
 * Fixture chart sources live in fixtures/charts/<name>/<version>/. A version
 * folder may hold a BASE file naming the version it starts from; its own
 * files replace the base's. Dependencies with a file:// repository are packed
 * into the chart's charts/ folder, as `helm dependency build` would.
 */
export const FIXTURES = resolve(import.meta.dirname, "..", "fixtures", "charts");

export interface BuiltChart {
  name: string;
  version: string;
  data: Buffer;
  chartYaml: Record<string, unknown>;
}

export async function loadChartFiles(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const base = await readFile(join(dir, "BASE"), "utf8").catch(() => undefined);
  if (base !== undefined) {
    for (const [path, data] of await loadChartFiles(join(dir, "..", base.trim()))) files.set(path, data);
  }
  for (const path of await walk(dir)) {
    if (path !== "BASE") files.set(path, await readFile(join(dir, path)));
  }
  return files;
}

async function walk(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for (const entry of (await readdir(join(dir, prefix), { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await walk(dir, path)));
    else out.push(path);
  }
  return out;
}

export async function buildChart(dir: string, mtime: Date): Promise<BuiltChart> {
  const files = await loadChartFiles(dir);
  const chartYaml = parse((files.get("Chart.yaml") ?? Buffer.alloc(0)).toString("utf8")) as Record<string, unknown>;
  const dependencies = (chartYaml.dependencies ?? []) as { name: string; version: string; repository?: string }[];
  for (const dependency of dependencies) {
    if (!dependency.repository?.startsWith("file://")) continue;
    const built = await buildChart(resolve(dir, dependency.repository.slice("file://".length)), mtime);
    files.set(`charts/${built.name}-${built.version}.tgz`, built.data);
  }
  const name = String(chartYaml.name);
  const version = String(chartYaml.version);
  return { name, version, chartYaml, data: await packChart(name, files, mtime) };
}

/** Every fixture chart, sorted by name then version folder. */
export async function fixtureDirs(root = FIXTURES): Promise<string[]> {
  const dirs: string[] = [];
  for (const name of (await readdir(root)).sort()) {
    if (!(await stat(join(root, name))).isDirectory()) continue;
    for (const version of (await readdir(join(root, name))).sort()) dirs.push(join(root, name, version));
  }
  return dirs;
}

/** A fixed date per chart version, from fixtures/charts/released.yaml. */
async function releaseDates(root: string): Promise<Record<string, string>> {
  return parse(await readFile(join(root, "released.yaml"), "utf8")) as Record<string, string>;
}

export interface IndexEntry extends Record<string, unknown> {
  name: string;
  version: string;
}

/** Write archives and a Helm-style index.yaml for `charts` into `out`. */
export async function writeRepository(out: string, charts: BuiltChart[], dates: Record<string, string> = {}): Promise<void> {
  await mkdir(out, { recursive: true });
  const entries: Record<string, IndexEntry[]> = {};
  for (const chart of charts) {
    const file = `${chart.name}-${chart.version}.tgz`;
    await writeFile(join(out, file), chart.data);
    const entry: IndexEntry = {
      apiVersion: chart.chartYaml.apiVersion,
      appVersion: chart.chartYaml.appVersion,
      created: dates[`${chart.name}-${chart.version}`] ?? "2026-01-01T00:00:00Z",
      description: chart.chartYaml.description,
      digest: sha256Hex(chart.data),
      name: chart.name,
      type: chart.chartYaml.type,
      urls: [file],
      version: chart.version,
    };
    if (chart.chartYaml.dependencies !== undefined) entry.dependencies = chart.chartYaml.dependencies;
    if (chart.chartYaml.deprecated === true) entry.deprecated = true;
    entries[chart.name] ??= [];
    entries[chart.name]?.push(entry);
  }
  for (const list of Object.values(entries)) list.reverse();
  const index = { apiVersion: "v1", entries, generated: "2026-11-01T00:00:00Z" };
  await writeFile(join(out, "index.yaml"), stringify(index, { lineWidth: 0 }));
}

/** Build the example repository: every fixture chart, reproducibly. */
export async function buildFixtureRepository(out: string, root = FIXTURES): Promise<string[]> {
  const dates = await releaseDates(root);
  const mtime = new Date("2026-01-01T00:00:00Z");
  const charts = [];
  for (const dir of await fixtureDirs(root)) charts.push(await buildChart(dir, mtime));
  await rm(out, { recursive: true, force: true });
  await writeRepository(out, charts, dates);
  return charts.map((chart) => relative(out, join(out, `${chart.name}-${chart.version}.tgz`)));
}
