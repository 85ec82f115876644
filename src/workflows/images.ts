import type { ImageRow, ImagesReport } from "../report/images.js";
import type { Project } from "../project/project.js";
import { requirePin, selectCharts, stackName, stacksFor } from "../project/select.js";

/** `chartroom images`: the images the lock records for each chart and stack. Reads the lock only. */
export async function images(project: Project, options: { charts?: readonly string[]; stack?: string } = {}): Promise<ImagesReport> {
  const stacks = stacksFor(project, options.stack).map(stackName);
  const rows: ImageRow[] = [];
  const notRecorded: string[] = [];
  for (const spec of selectCharts(project, options.charts)) {
    const pin = requirePin(project, spec);
    // Every pin this chartroom writes has `images` (empty when the chart runs none).
    if (pin.images === undefined) notRecorded.push(spec.key);
    for (const stack of stacks) {
      for (const image of (Object.hasOwn(pin.images ?? {}, stack) ? pin.images?.[stack] : undefined) ?? []) {
        rows.push({
          chart: spec.key,
          stack,
          object: image.object,
          container: image.container,
          image: image.image,
          ...(image.digest === undefined ? {} : { digest: image.digest }),
          ...(image.platforms === undefined ? {} : { platforms: image.platforms }),
          ...(image.unresolved === undefined ? {} : { unresolved: image.unresolved }),
          pinned: spec.pinImages && image.digest !== undefined,
        });
      }
    }
  }
  return { report: "images", format: 1, images: rows, notRecorded };
}
