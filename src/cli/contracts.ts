import { inspectArchive, type ChartInspection } from "../chart/inspect.js";
import type { ChartSpec } from "../config/types.js";
import type { LockedChart } from "../lock/schema.js";
import { verifyPin } from "../lock/verify.js";
import { fetchVerified } from "../sources/archive-cache.js";
import type { ChartVersion } from "../sources/types.js";
import type { ValuesContract } from "../values/check.js";
import type { Session } from "./session.js";

const inspections = new Map<string, Promise<ChartInspection>>();

/** A chart version's values contract, from its (verified, cached) archive; inspected once per digest. */
export async function contractFor(session: Session, spec: ChartSpec, target: { pin: LockedChart } | { version: ChartVersion }): Promise<ValuesContract & { version: string }> {
  const source = session.sources.get(spec.repository.name);
  if (source === undefined) throw new Error(`no source for ${spec.repository.name}`);
  const archive = "pin" in target ? await verifyPin(source, spec.key, target.pin, session.store) : await fetchVerified(source, target.version, session.store);
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
