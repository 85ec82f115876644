import { fetchVerified, type ArchiveStore } from "../sources/archive-cache.js";
import type { ChartSource, ChartVersion, FetchedArchive } from "../sources/types.js";
import type { LockedChart } from "./schema.js";

/**
 * The archive a pin names, checked against every digest the lock holds (the
 * archive's, and for OCI the manifest's, so a moved tag is caught).
 */
export async function verifyPin(source: ChartSource, key: string, pin: LockedChart, store: ArchiveStore, listing?: readonly ChartVersion[]): Promise<FetchedArchive> {
  const listed = listing?.find((v) => v.version === pin.version);
  const version: ChartVersion = listed ?? { name: pin.chart, version: pin.version, urls: [pin.url] };
  return fetchVerified(source, version, store, { digest: pin.digest, chart: key, manifestDigest: pin.manifestDigest });
}
