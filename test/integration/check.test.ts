import { appendFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, copyPlatform, snapshot } from "../helpers/platform.js";

async function withMistakes(): Promise<string> {
  const dir = await copyPlatform();
  await appendFile(
    join(dir, "values", "webapp", "prod.yaml"),
    'replicaCoutn: 4\nconfig:\n  logLevel: verbose\nservice:\n  port: "8080"\npodAnnotations:\n  anything.example.test/goes: "yes"\n',
  );
  await appendFile(join(dir, "values", "storefront", "prod.yaml"), "webapp:\n  image:\n    pullPolicy: Sometimes\n");
  return dir;
}

describe("chartroom check", () => {
  it("passes the example platform", async () => {
    const dir = await copyPlatform();
    const result = await cli(dir, ["check"]);
    expect(result.exitCode).toBe(0);
    expect(result.output.split("\n").filter((line) => line.startsWith("error"))).toStrictEqual([]);
    expect(result.output.split("\n").at(-1)).toBe("0 error(s), 19 warning(s), 12 note(s) in 8 chart/stack pair(s)");
  });

  it("reports each mistake with file, line, column, rule and hint, exiting 2 and changing nothing", async () => {
    const dir = await withMistakes();
    const before = await snapshot(dir, ["charts.lock.json", "values/webapp/prod.yaml"]);
    const result = await cli(dir, ["check", "--stack", "prod"]);
    expect(result.exitCode).toBe(2);
    const lines = result.output.split("\n");
    const inValuesFiles = lines.flatMap((line, i) => (line.startsWith("error values/") ? [line, lines[i + 1]] : []));
    expect([...inValuesFiles, lines.at(-1)]).toStrictEqual([
      "error values/storefront/prod.yaml:5:5 storefront [prod] webapp.image.pullPolicy: not one of the values the chart allows (enum)",
      '  hint: allowed: "Always", "IfNotPresent", "Never"',
      "error values/webapp/prod.yaml:11:3 webapp [prod] config.logLevel: not one of the values the chart allows (enum)",
      '  hint: allowed: "debug", "info", "warn", "error"',
      "error values/webapp/prod.yaml:9:1 webapp [prod] replicaCoutn: the chart does not know this key: Helm ignores it and renders the default (unknown-key)",
      '  hint: did you mean "replicaCount"?',
      "error values/webapp/prod.yaml:13:3 webapp [prod] service.port: expected integer, got string (type)",
      "  hint: set a value of type integer",
      "6 error(s), 0 warning(s), 0 note(s) in 4 chart/stack pair(s)",
    ]);
    // Helm refuses those values too: said once per chart, and the stack's policies wait.
    expect(lines.filter((line) => line.endsWith("(render-failed)")).map((line) => line.split(":")[0])).toStrictEqual([
      "error storefront [prod]",
      "error webapp [prod]",
    ]);
    expect(await snapshot(dir, ["charts.lock.json", "values/webapp/prod.yaml"])).toStrictEqual(before);
  });

  it("suggests the nearest key inside a subchart's section, by the subchart's own keys", async () => {
    const dir = await copyPlatform();
    await writeFile(join(dir, "values", "storefront", "dev.yaml"), "webapp:\n  replicaCuont: 3\n");
    const result = await cli(dir, ["check", "storefront", "--stack", "dev"]);
    expect(result.exitCode).toBe(2);
    const lines = result.output.split("\n");
    const at = lines.findIndex((line) => line.startsWith("error values/storefront/dev.yaml:2:3 storefront [dev] webapp.replicaCuont:"));
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines[at + 1]).toBe('  hint: did you mean "webapp.replicaCount"?');
  });

  it("warns about values files nothing reads, and fails on them with --strict", async () => {
    const dir = await copyPlatform();
    await writeFile(join(dir, "values", "webapp", "production.yaml"), "replicaCount: 3\n");
    const relaxed = await cli(dir, ["check", "webapp", "--stack", "dev"]);
    expect(relaxed.exitCode).toBe(0);
    expect(relaxed.output.split("\n")).toContain(
      'warning values/webapp/production.yaml:1:1 webapp [*]: no stack is called "production": nothing reads this file (values-file-unread)',
    );
    const strict = await cli(dir, ["check", "webapp", "--stack", "dev", "--strict"]);
    expect(strict.exitCode).toBe(2);
    expect(strict.output.split("\n")).toContain(
      'error values/webapp/production.yaml:1:1 webapp [*]: no stack is called "production": nothing reads this file (values-file-unread)',
    );
  });

  it("prints findings as JSON and markdown", async () => {
    const dir = await withMistakes();
    const json = JSON.parse((await cli(dir, ["check", "webapp", "--format", "json"])).output);
    expect(json.checked).toBe(2);
    expect(json.findings[0]).toMatchObject({
      chart: "webapp",
      stack: "prod",
      rule: "enum",
      path: "config.logLevel",
      position: { file: "values/webapp/prod.yaml", line: 11, column: 3 },
    });
    const markdown = (await cli(dir, ["check", "webapp", "--format", "markdown"])).output;
    expect(markdown).toContain("| error | webapp | prod | replicaCoutn | unknown-key |");
  });
});
