// chartroom/codegen: TypeScript types of every chart's values. Kept apart from
// "chartroom" because json-schema-to-typescript (and prettier with it) costs
// hundreds of milliseconds to load, and only this needs it.
import { join } from "node:path";
import type { TypesReport } from "../report/codegen.js";
import { readFileOrNull, writeFileAtomic } from "../util/fs.js";
import { mapLimit } from "../util/pool.js";
import { contractFor } from "../project/archives.js";
import { checkOptions, checkProject } from "../project/arguments.js";
import type { Project } from "../project/project.js";
import { requirePin } from "../project/select.js";
import { generateTypes, TYPES_FILE } from "./types.js";

export { generateTypes, TYPES_FILE } from "./types.js";
export type { TypesReport } from "../report/codegen.js";

/**
 * `chartroom types`: write chartroom.types.ts next to the config, one type per
 * chart from its pinned version's schema (or inferred from its defaults).
 * With `check`, write nothing and report whether the file is current.
 */
export async function types(given: Project, options: { check?: boolean } = {}): Promise<TypesReport> {
  const project = checkProject("types", given);
  checkOptions("types", options);
  const charts = await mapLimit(project.config.charts, 8, async (spec) => {
    const contract = await contractFor(project, spec, { pin: requirePin(project, spec) });
    return { key: spec.key, version: contract.version, contract };
  });
  const text = await generateTypes(charts);
  const path = join(project.config.dir, TYPES_FILE);
  const current = (await readFileOrNull(path))?.toString("utf8");
  const listed = charts.map((chart) => ({ chart: chart.key, version: chart.version }));
  if (options.check === true) return { report: "types", format: 1, path, charts: listed, status: current === text ? "current" : "stale" };
  if (current !== text) await writeFileAtomic(path, text, 0o644, TYPES_FILE);
  return { report: "types", format: 1, path, charts: listed, status: current === text ? "unchanged" : "written" };
}
