// The new side of a chart, asked of the live cluster object by object, as
// the Kubernetes provider's preview asks it: GET the live object, then a
// server-side apply with dryRun=All as the provider's field manager, and
// compare the two in the fields that manager owns. What the server refuses
// (a field another manager owns, an immutable field, a kind it does not
// serve, a verb the identity lacks) is said here, before `pulumi up`.
import type { LiveObjectReport, LiveSection } from "../diff/model.js";
import { entryOf, fidelity, type ManagedEntry } from "../diff/managed-fields.js";
import { adviceFor, PULUMI_MANAGER, parseConflicts } from "../engine/conflicts.js";
import { ENGINES } from "../engine/records.js";
import type { EngineName } from "../model/engine.js";
import { displayName, type RenderedObject } from "../model/objects.js";
import { isRecord } from "../util/json.js";
import { mapLimit } from "../util/pool.js";
import type { Answer, KubeClient } from "./client.js";
import type { ClusterAccess } from "./kubeconfig.js";

/** The manager a dry run applies as when the provider has not applied the object yet (its naming: one per resource). */
const NEW_MANAGER = "pulumi-kubernetes-00000000";
const CONCURRENCY = 8;

interface Resource {
  plural: string;
  namespaced: boolean;
}

/** Which resource serves a kind, per group version (one discovery request each, shared by the run). */
export function discovery(client: KubeClient): (apiVersion: string, kind: string) => Promise<Resource | undefined> {
  const lists = new Map<string, Promise<Map<string, Resource> | undefined>>();
  return async (apiVersion, kind) => {
    let list = lists.get(apiVersion);
    if (list === undefined) {
      list = client.get(apiVersion.includes("/") ? `/apis/${apiVersion}` : `/api/${apiVersion}`).then((answer) => {
        if (answer.status === 404) return undefined;
        const resources = isRecord(answer.body) && Array.isArray(answer.body.resources) ? answer.body.resources : [];
        const byKind = new Map<string, Resource>();
        for (const item of resources) {
          if (!isRecord(item) || typeof item.name !== "string" || item.name.includes("/")) continue;
          byKind.set(String(item.kind), { plural: item.name, namespaced: item.namespaced === true });
        }
        return byKind;
      });
      lists.set(apiVersion, list);
    }
    return (await list)?.get(kind);
  };
}

/** Review the objects one chart renders (its new side) against the cluster. */
export async function reviewLive(
  client: KubeClient,
  access: Pick<ClusterAccess, "server" | "context">,
  resourceOf: ReturnType<typeof discovery>,
  engine: EngineName,
  objects: readonly RenderedObject[],
): Promise<LiveSection> {
  const section: LiveSection = { server: access.server, context: access.context, counts: {}, objects: [], notes: [] };
  const later = ENGINES[engine].notReviewedLive;
  if (later !== undefined) {
    section.notes.push(later);
    return section;
  }
  const deployed = objects.filter((object) => object.hook === undefined);
  const served = crdKinds(deployed);
  const reports = await mapLimit(deployed, CONCURRENCY, (object) => reviewObject(client, resourceOf, object, served));
  for (const report of reports) {
    section.counts[report.outcome] = (section.counts[report.outcome] ?? 0) + 1;
    if (report.outcome !== "same") section.objects.push(report);
  }
  return section;
}

/** `group/Kind` of the CRDs the same render ships: their custom resources are created after them in the same apply. */
function crdKinds(objects: readonly RenderedObject[]): Set<string> {
  const kinds = new Set<string>();
  for (const object of objects) {
    if (object.kind !== "CustomResourceDefinition") continue;
    const spec = isRecord(object.body.spec) ? object.body.spec : {};
    const names = isRecord(spec.names) ? spec.names : {};
    kinds.add(`${String(spec.group)}/${String(names.kind)}`);
  }
  return kinds;
}

async function reviewObject(
  client: KubeClient,
  resourceOf: ReturnType<typeof discovery>,
  object: RenderedObject,
  served: ReadonlySet<string>,
): Promise<LiveObjectReport> {
  const base = { id: object.id, display: displayName(object) };
  const resource = await resourceOf(object.apiVersion, object.kind);
  if (resource === undefined) {
    const group = object.apiVersion.includes("/") ? (object.apiVersion.split("/")[0] ?? "") : "";
    if (served.has(`${group}/${object.kind}`)) return { ...base, outcome: "create", fix: "its CRD is in the same chart: helm.v4.Chart creates CRDs first" };
    return {
      ...base,
      outcome: "unknown-kind",
      message: `no matches for kind "${object.kind}" in version "${object.apiVersion}"`,
      fix: "the cluster does not serve this kind: install its CRD first (dependsOn the chart that ships it), or the apiVersion was removed",
    };
  }
  const prefix = object.apiVersion.includes("/") ? `/apis/${object.apiVersion}` : `/api/${object.apiVersion}`;
  const namespace = resource.namespaced ? `/namespaces/${encodeURIComponent(object.namespace ?? "default")}` : "";
  const path = `${prefix}${namespace}/${resource.plural}/${encodeURIComponent(object.name)}`;
  const got = await client.get(path);
  if (got.status === 403) return refused(base, got, object);
  if (got.status !== 200 && got.status !== 404) return failed(base, got, object);
  const live = got.status === 200 && isRecord(got.body) ? got.body : undefined;
  const managed = live === undefined ? [] : managedOf(live);
  const manager = managed.find((entry) => entry.operation === "Apply" && PULUMI_MANAGER.test(entry.manager))?.manager;
  const applied = await client.dryRunApply(path, object.body, manager ?? NEW_MANAGER);
  if (applied.status === 409) {
    const conflicts = parseConflicts(messageOf(applied)).map((conflict) => ({ ...conflict, ...adviceFor(conflict) }));
    return { ...base, outcome: "conflict", manager: manager ?? NEW_MANAGER, conflicts };
  }
  if (applied.status === 422 && /field is immutable/.test(messageOf(applied))) {
    return {
      ...base,
      outcome: "immutable",
      fields: causesOf(applied),
      message: hidden(messageOf(applied), object),
      fix: "the object must be deleted and created again: helm.v4.Chart replaces it (and its replacement fails, see the diff), helm upgrade fails",
    };
  }
  if (applied.status === 403) return refused(base, applied, object);
  if (applied.status === 404 && /namespaces "[^"]+" not found/.test(messageOf(applied))) {
    return { ...base, outcome: "create", fix: `its namespace ${object.namespace} does not exist yet: deployCharts creates it first` };
  }
  if (applied.status !== 200 && applied.status !== 201) return failed(base, applied, object);
  if (live === undefined) return { ...base, outcome: "create" };
  if (manager === undefined) {
    return {
      ...base,
      outcome: "adopt",
      owners: [...new Set(managed.map((entry) => entry.manager))].sort(),
      fix: "the object exists and Pulumi does not own it: the apply takes its fields over",
    };
  }
  const result = isRecord(applied.body) ? applied.body : {};
  const entry = entryOf(managedOf(result), manager);
  const changed = entry === undefined ? [] : fidelity(entry, live, result).differs.map((item) => item.path);
  return changed.length === 0 ? { ...base, outcome: "same" } : { ...base, outcome: "update", manager, fields: changed };
}

function managedOf(object: Record<string, unknown>): ManagedEntry[] {
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  return Array.isArray(metadata.managedFields) ? (metadata.managedFields as ManagedEntry[]) : [];
}

function messageOf(answer: Answer): string {
  return isRecord(answer.body) && typeof answer.body.message === "string" ? answer.body.message : String(answer.body).slice(0, 500);
}

function causesOf(answer: Answer): string[] {
  const details = isRecord(answer.body) && isRecord(answer.body.details) ? answer.body.details : {};
  const causes = Array.isArray(details.causes) ? details.causes : [];
  return [...new Set(causes.flatMap((cause) => (isRecord(cause) && typeof cause.field === "string" ? [cause.field] : [])))].sort();
}

/** The server's message, with any value it quotes hidden when the object is a Secret. */
function hidden(message: string, object: RenderedObject): string {
  return object.kind === "Secret" ? message.replace(/Invalid value: ("(?:[^"\\]|\\.)*"|[^:]*):/g, "Invalid value: (hidden):") : message;
}

function refused(base: { id: string; display: string }, answer: Answer, object: RenderedObject): LiveObjectReport {
  return {
    ...base,
    outcome: "forbidden",
    message: hidden(messageOf(answer), object),
    fix: "the deploying identity lacks this verb: grant it (server-side apply needs get and patch)",
  };
}

function failed(base: { id: string; display: string }, answer: Answer, object: RenderedObject): LiveObjectReport {
  return { ...base, outcome: "error", message: `${answer.status}: ${hidden(messageOf(answer), object)}` };
}
