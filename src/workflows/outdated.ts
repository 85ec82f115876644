import type { OutdatedReport } from "../report/outdated.js";
import { mapLimit } from "../util/pool.js";
import { outdatedRow } from "../versions/outdated.js";
import type { Project } from "../project/project.js";
import { selectCharts, sourceOf } from "../project/select.js";

/** `chartroom outdated`: the pin of each chart (all when none named) against the repository's versions. */
export async function outdated(project: Project, options: { charts?: readonly string[] } = {}): Promise<OutdatedReport> {
  const pins = project.lock?.charts ?? {};
  const charts = await mapLimit(selectCharts(project, options.charts), 8, async (spec) => {
    const versions = await sourceOf(project, spec).listVersions(spec.chart);
    return outdatedRow(spec, Object.hasOwn(pins, spec.key) ? pins[spec.key] : undefined, versions);
  });
  return { report: "outdated", format: 1, charts };
}
