// Writes docs/<kind>-report.schema.json: the JSON Schema of each report's
// `--format json`, generated from the report's TypeScript type so the two
// cannot drift. `npm run schemas` writes them; a test fails when they are stale.
import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { createGenerator } from "ts-json-schema-generator";

const root = resolve(import.meta.dirname, "..");

/** Report kind → [file declaring its type, type name]. */
export const REPORTS: Record<string, [string, string]> = {
  lock: ["src/report/lock.ts", "LockReport"],
  verify: ["src/report/lock.ts", "VerifyReport"],
  outdated: ["src/report/outdated.ts", "OutdatedReport"],
  plan: ["src/report/plan.ts", "PlanReport"],
  render: ["src/report/render.ts", "RenderReport"],
  diff: ["src/diff/model.ts", "DiffReport"],
  check: ["src/report/check.ts", "CheckReport"],
  upgrade: ["src/report/upgrade.ts", "UpgradeReport"],
  explain: ["src/report/explain.ts", "ExplainReport"],
  types: ["src/report/codegen.ts", "TypesReport"],
  images: ["src/report/images.ts", "ImagesReport"],
};

export function schemaPath(kind: string): string {
  return join(root, "docs", `${kind}-report.schema.json`);
}

/** The schema text for one report kind, as the generator makes it from the type. */
export function reportSchema(kind: string): string {
  const [file, type] = REPORTS[kind] as [string, string];
  const generator = createGenerator({
    path: join(root, file),
    tsconfig: join(root, "tsconfig.json"),
    type,
    skipTypeCheck: true,
    additionalProperties: false,
    expose: "export",
    jsDoc: "basic",
  });
  const schema = { $id: `https://chartroom.dev/schemas/${kind}-report.json`, title: `chartroom ${kind} --format json`, ...generator.createSchema(type) };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

if (process.argv[1] === import.meta.filename) {
  for (const kind of Object.keys(REPORTS)) {
    await writeFile(schemaPath(kind), reportSchema(kind));
    process.stdout.write(`wrote docs/${kind}-report.schema.json\n`);
  }
}
