import { inspectArchive, type ChartInspection } from "../chart/inspect.js";
import type { ChartSpec } from "../config/types.js";
import type { ValuesContract } from "../values/check.js";
import { archiveFor, type ArchiveTarget, type Session } from "./session.js";

const inspections = new Map<string, Promise<ChartInspection>>();

/** A chart version's values contract, from its (verified, cached) archive; inspected once per digest. */
export async function contractFor(session: Session, spec: ChartSpec, target: ArchiveTarget): Promise<ValuesContract & { version: string }> {
  const archive = await archiveFor(session, spec, target);
  let inspection = inspections.get(archive.digest);
  if (inspection === undefined) {
    inspection = inspectArchive(archive.data, spec.key);
    inspections.set(archive.digest, inspection);
  }
  const found = await inspection;
  return {
    version: "pin" in target ? target.pin.version : target.version.version,
    defaults: found.defaults,
    schema: found.schemaDocument,
    schemaDigest: found.schema?.digest,
    subcharts: found.subcharts,
  };
}
