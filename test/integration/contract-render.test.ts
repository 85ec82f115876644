// "Helm ignores this key" is said only of keys a render shows are ignored:
// a key the new version's defaults and schema dropped but its templates
// still read is not reported.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { materialise } from "../helpers/chart-repo.js";
import { runHelm } from "../helpers/helm.js";
import { cli, copyPlatform, editFile } from "../helpers/platform.js";

interface JsonReport {
  charts: { contract: { kind: string; path: string }[] }[];
}

it("reports a key the new version ignores, and not one it dropped from its defaults but still reads", async () => {
  const dir = await copyPlatform();
  // webapp 2.0.1: 2.0.0 without config.logLevel in values.yaml and the schema; the ConfigMap still reads it.
  const chart = await materialise("webapp", "2.0.0", join(dir, ".work"));
  await editFile(join(chart, "Chart.yaml"), (text) => text.replace("version: 2.0.0", "version: 2.0.1"));
  await editFile(join(chart, "values.yaml"), (text) => text.replace(/^ {2}logLevel: info\n/m, ""));
  const schema = JSON.parse(await readFile(join(chart, "values.schema.json"), "utf8")) as { properties: { config: { properties: Record<string, unknown> } } };
  delete schema.properties.config.properties.logLevel;
  await writeFile(join(chart, "values.schema.json"), JSON.stringify(schema, null, 2));
  expect(await readFile(join(chart, "templates", "configmap.yaml"), "utf8")).toContain(".Values.config.logLevel");
  await runHelm(4, ["package", chart, "--destination", join(dir, "charts")], dir);
  await runHelm(4, ["repo", "index", join(dir, "charts"), "--merge", join(dir, "charts", "index.yaml")], dir);

  const result = await cli(dir, ["diff", "webapp", "--to", "2.0.1", "--stack", "dev", "--format", "json"]);
  expect(result.errors).toBe("");
  const contract = (JSON.parse(result.output) as JsonReport).charts[0]?.contract.filter((change) => change.kind === "ignored").map((change) => change.path);
  // service.port: renamed to service.httpPort in 2.0.x, read by nothing. config.logLevel: still rendered.
  expect(contract).toStrictEqual(["service.port"]);
});
