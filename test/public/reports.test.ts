// The library as a user has it: only the package names `chartroom` and
// `chartroom/codegen`. Every workflow's report validates against its schema in
// docs/, and prints in each of its formats exactly as the golden files say.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv } from "ajv";
import {
  ChartroomError,
  check,
  diff,
  explain,
  formatReport,
  images,
  formatsOf,
  lock,
  openProject,
  outdated,
  plan,
  planUpgrade,
  applyUpgrade,
  render,
  verify,
  type AnyReport,
  type Format,
  type Project,
} from "chartroom";
import { types } from "chartroom/codegen";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportSchema, schemaPath, REPORTS } from "../../scripts/report-schemas.js";
import { GOLDEN, goldenFile } from "../helpers/goldens.js";
import { helm } from "../helpers/helm.js";
import { copyPlatformTo, editFile } from "../helpers/platform.js";

async function project(dir: string): Promise<Project> {
  return openProject({ dir, env: { ...process.env, CHARTROOM_CACHE: join(dir, ".cache"), HELM_BIN: await helm(4) } });
}

/** One report of each kind from a copy of the example platform, as the workflows return them. */
async function everyReport(dir: string, moved: string): Promise<Record<string, AnyReport>> {
  await copyPlatformTo(dir);
  const p = await project(dir);
  // A second copy whose web app range admits 1.1.0: an upgrade to plan and apply.
  await copyPlatformTo(moved);
  await editFile(join(moved, "chartroom.config.ts"), (text) => text.replace('version: "~1.0.0"', 'version: "~1.1.0"'));
  const q = await project(moved);
  return {
    lock: await lock(p),
    verify: await verify(p),
    outdated: await outdated(p),
    plan: await plan(p),
    render: await render(p, { chart: "webapp", stack: "prod" }),
    diff: await diff(p, { charts: ["webapp"], to: "2.0.0", stack: "prod" }),
    check: await check(p),
    upgrade: await applyUpgrade(q, await planUpgrade(q, { stack: "dev" })),
    explain: await explain(p, { chart: "ledger" }),
    images: await images(p, { stack: "dev" }),
    types: await types(p, { check: true }),
  };
}

/** Paths of the temporary copy, stable in golden files. */
function stable(text: string, dir: string): string {
  return text.split(dir).join("<platform>");
}

describe("reports", () => {
  let reports: Record<string, AnyReport>;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "chartroom-reports-"));
    reports = await everyReport(join(dir, "platform"), join(dir, "moved"));
    dir = join(dir, "platform");
  });

  afterAll(() => rm(join(dir, ".."), { recursive: true, force: true }));

  it("cover every kind of report, each naming itself and its format version", () => {
    expect(Object.keys(reports).sort()).toStrictEqual(Object.keys(REPORTS).sort());
    for (const [kind, report] of Object.entries(reports)) expect([report.report, typeof report.format]).toStrictEqual([kind, "number"]);
  });

  it.each(Object.keys(REPORTS))("%s: docs/ holds the schema its type generates", async (kind) => {
    expect(await readFile(schemaPath(kind), "utf8"), "run `npm run schemas`").toBe(reportSchema(kind));
  });

  it.each(Object.keys(REPORTS))("%s: the JSON validates against its schema", async (kind) => {
    const validate = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(await readFile(schemaPath(kind), "utf8")));
    const json = JSON.parse(await formatReport(reports[kind] as AnyReport, "json"));
    expect(validate(json), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  });

  it.each(Object.keys(REPORTS))("%s: prints in each of its formats as the golden files say", async (kind) => {
    const report = reports[kind] as AnyReport;
    const formats = await formatsOf(report.report);
    expect(formats).toContain("json");
    await mkdir(GOLDEN, { recursive: true });
    for (const format of formats) {
      if (kind === "check" && format === "yaml") {
        // The Role YAML exists only with --cluster (test/cluster/rights.test.ts prints and applies it); without, a usage error.
        const error = await formatReport(report, format).catch((e: unknown) => e);
        expect(ChartroomError.isInstance(error) && [error.code, error.message]).toStrictEqual([
          "USAGE",
          "check prints as yaml only with --cluster: the YAML is the Role the deploy needs there",
        ]);
        continue;
      }
      const text = stable(await formatReport(report, format, { cwd: dir }), dir);
      const path = goldenFile(kind, format);
      if (process.env.UPDATE_GOLDEN === "1") await writeFile(path, text);
      expect(text, `${kind} as ${format}`).toBe(await readFile(path, "utf8"));
    }
  });

  it("refuses a format a report does not have, naming the ones it has", async () => {
    const error = await formatReport(reports.check as AnyReport, "html" as Format).catch((e: unknown) => e);
    expect(ChartroomError.isInstance(error) && [error.code, error.message, error.hint]).toStrictEqual([
      "USAGE",
      "check does not print as html",
      "-o text | json | markdown | yaml",
    ]);
  });
});
