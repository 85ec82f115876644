// A Helm release as Helm 3 stores it: one Secret per revision,
// `sh.helm.release.v1.<name>.v<N>`, labelled owner=helm and name=<name>,
// whose `release` key holds base64 of the gzipped JSON record. Only the
// revision, status, chart, manifest and hooks are read from it: the record
// also holds the values and every template, which never leave this module.
import { isRecord } from "../util/json.js";
import type { Answer, KubeClient } from "./client.js";
import { onFirstUse } from "../util/on-first-use.js";

// Loaded by the one run that reads a release: every other run starts without node:zlib.
const zlib = onFirstUse<typeof import("node:zlib")>("node:zlib");

export interface StoredRelease {
  revision: number;
  status: string;
  chart: string;
  manifest: string;
}

/** Helm refuses to upgrade a release while a revision is pending (its "another operation is in progress"). */
export const PENDING = /^pending-(install|upgrade|rollback)$/;

const MAX_RECORD = 64 * 1024 * 1024;

/** Every stored revision of release `name` in `namespace`, newest first; the answer itself when the server refuses the list. */
export async function storedReleases(client: KubeClient, name: string, namespace: string): Promise<StoredRelease[] | Answer> {
  const selector = encodeURIComponent(`owner=helm,name=${name}`);
  const answer = await client.get(`/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets?labelSelector=${selector}`);
  if (answer.status !== 200) return answer;
  const items = isRecord(answer.body) && Array.isArray(answer.body.items) ? answer.body.items : [];
  const releases: StoredRelease[] = [];
  for (const item of items) {
    if (!isRecord(item) || item.type !== "helm.sh/release.v1" || !isRecord(item.data) || typeof item.data.release !== "string") continue;
    const record = decodeRelease(item.data.release);
    if (record !== undefined) releases.push(record);
  }
  return releases.sort((a, b) => b.revision - a.revision);
}

/** The revision an upgrade starts from: the newest deployed one, else the newest (Helm's own choice). */
export function upgradeBase(releases: readonly StoredRelease[]): StoredRelease | undefined {
  return releases.find((release) => release.status === "deployed") ?? releases[0];
}

/** A Secret's `release` value (base64 as the API returns it) to the fields chartroom reads; undefined when it is not a Helm record. */
export function decodeRelease(data: string): StoredRelease | undefined {
  try {
    let bytes = Buffer.from(Buffer.from(data, "base64").toString("latin1"), "base64");
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = zlib().gunzipSync(bytes, { maxOutputLength: MAX_RECORD });
    const record: unknown = JSON.parse(bytes.toString("utf8"));
    if (!isRecord(record) || typeof record.version !== "number") return undefined;
    const info = isRecord(record.info) ? record.info : {};
    const chart = isRecord(record.chart) && isRecord(record.chart.metadata) ? record.chart.metadata : {};
    return {
      revision: record.version,
      status: typeof info.status === "string" ? info.status : "unknown",
      chart: `${String(chart.name)}-${String(chart.version)}`,
      manifest: typeof record.manifest === "string" ? record.manifest : "",
    };
  } catch {
    return undefined;
  }
}
