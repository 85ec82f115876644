// The new side of a chart, asked of the live cluster object by object, as
// the Kubernetes provider's preview asks it: GET the live object, then a
// server-side apply with dryRun=All as the provider's field manager, and
// compare the two in the fields that manager owns. What the server refuses
// (a field another manager owns, an immutable field, a kind it does not
// serve, a verb the identity lacks) is said here, before `pulumi up`.
import { liveChanges, removedKeys } from "../diff/live-changes.js";
import type { LiveHook, LiveInput, LiveObjectReport, LiveSection } from "../diff/model.js";
import { entryOf, type ManagedEntry } from "../diff/managed-fields.js";
import { adviceFor, PULUMI_MANAGER, parseConflicts } from "../engine/conflicts.js";
import { awaitsOf, STUCK } from "../engine/readiness.js";
import { rightsNeeded, type RightsChart } from "../engine/rights.js";
import { ENGINES } from "../engine/records.js";
import { displayName, type RenderedObject } from "../model/objects.js";
import { isRecord } from "../util/json.js";
import { mapLimit } from "../util/pool.js";
import { parseManifest } from "../render/manifest.js";
import { type Identity, missingRights, whoAmI } from "./access.js";
import type { Answer, KubeClient } from "./client.js";
import type { ClusterAccess } from "./kubeconfig.js";
import { PENDING, storedReleases, upgradeBase } from "./release.js";
import { byText } from "../util/order.js";

/** The manager a dry run applies as when the provider has not applied the object yet (its naming: one per resource). */
const NEW_MANAGER = "pulumi-kubernetes-00000000";
/** A Release's dry run applies as Helm, with force: helm upgrade patches over whatever other managers own. */
const HELM_MANAGER = "helm";
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

/** How each object is asked: as whom, with force or not, and what it was before. */
interface Asking {
  force: boolean;
  /** What was deployed last, by id. */
  before: ReadonlyMap<string, RenderedObject>;
  sealedBefore: boolean;
  /** CRDs the same apply creates (`group/Kind`). */
  served: ReadonlyMap<string, Resource>;
  /** helm.v3.Release: objects Helm adopts must carry the release's ownership annotations. */
  release?: { name: string; namespace: string };
  /** The live objects seen, by id (readiness reads their pods). */
  seen: Map<string, Record<string, unknown>>;
  /** A GET of one object, answered from one LIST where its kind has many objects in its namespace. */
  read: (path: string) => Promise<Answer>;
}

/** Review the objects one chart renders (its new side) against the cluster. */
export async function reviewLive(
  client: KubeClient,
  access: Pick<ClusterAccess, "server" | "context">,
  resourceOf: ReturnType<typeof discovery>,
  input: LiveInput,
): Promise<LiveSection> {
  const section: LiveSection = { server: access.server, context: access.context, counts: {}, objects: [], notes: [] };
  const deployed = input.objects.filter((object) => object.hook === undefined);
  const record = ENGINES[input.engine].live;
  let before: readonly RenderedObject[] = input.previous.filter((object) => object.hook === undefined);
  if (record.base === "stored release") {
    const stored = await releaseBase(client, input, section);
    if (stored === undefined) return section;
    before = stored;
  }
  const asking: Asking = {
    force: record.force,
    before: new Map(before.map((object) => [object.id, object])),
    sealedBefore: record.base === "old render" && input.previousSealed,
    served: crdResources(deployed),
    ...(record.base === "stored release" ? { release: input.release } : {}),
    seen: new Map(),
    read: (path) => client.get(path),
  };
  const now = new Set(deployed.map((object) => object.id));
  const gone = before.filter((object) => !now.has(object.id));
  // The identity's rights are asked alongside the objects: neither waits for the other.
  const rightsAsked = chartRights(client, resourceOf, input);
  // Awaited below; should the reviews fail first, their error is the one reported.
  rightsAsked.catch(() => undefined);
  const reports = [
    ...(await reviewAll(client, resourceOf, deployed, asking)),
    ...(await mapLimit(gone, CONCURRENCY, (object) => reviewGone(client, resourceOf, object))),
  ];
  for (const report of reports) {
    section.counts[report.outcome] = (section.counts[report.outcome] ?? 0) + 1;
    if (report.outcome !== "same") section.objects.push(report);
  }
  const missing = await rightsAsked;
  if (missing.length > 0) section.missingRights = missing;
  const waits = awaitsOf(input.engine, input.objects).sort((a, b) => byText(a.display, b.display));
  section.awaits = await mapLimit(waits, CONCURRENCY, async (awaited) => {
    const live = asking.seen.get(awaited.id);
    const failing = live === undefined ? [] : await stuckPods(client, live);
    return failing.length === 0 ? awaited : { ...awaited, failing };
  });
  return section;
}

const identities = new WeakMap<KubeClient, Promise<Identity>>();

/** The rights this chart's deploy needs that the identity lacks (objects of kinds the server does not serve are said apart). */
async function chartRights(client: KubeClient, resourceOf: ReturnType<typeof discovery>, input: LiveInput): Promise<string[]> {
  let identity = identities.get(client);
  if (identity === undefined) {
    identity = whoAmI(client);
    identities.set(client, identity);
  }
  const objects: RightsChart["objects"][number][] = [];
  const crds = crdResources(input.objects);
  for (const object of input.objects) {
    const resource = (await resourceOf(object.apiVersion, object.kind)) ?? crds.get(`${object.group}/${object.kind}`);
    if (resource !== undefined) objects.push({ ...object, resource: resource.plural, namespaced: resource.namespaced });
  }
  const rights = rightsNeeded([{ key: "", engine: input.engine, release: input.release, objects }], []);
  return (await missingRights(client, await identity, rights)).map((missing) => missing.message);
}

/** The pods a live workload selects that are stuck in a state its rollout does not leave on its own. */
async function stuckPods(client: KubeClient, live: Record<string, unknown>): Promise<string[]> {
  const spec = isRecord(live.spec) ? live.spec : {};
  const selector = isRecord(spec.selector) && isRecord(spec.selector.matchLabels) ? spec.selector.matchLabels : undefined;
  const metadata = isRecord(live.metadata) ? live.metadata : {};
  if (selector === undefined || typeof metadata.namespace !== "string") return [];
  const labels = Object.entries(selector)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(",");
  const answer = await client.get(`/api/v1/namespaces/${encodeURIComponent(metadata.namespace)}/pods?labelSelector=${encodeURIComponent(labels)}`);
  const pods = answer.status === 200 && isRecord(answer.body) && Array.isArray(answer.body.items) ? answer.body.items.filter(isRecord) : [];
  const out: string[] = [];
  for (const pod of pods) {
    const status = isRecord(pod.status) ? pod.status : {};
    const name = isRecord(pod.metadata) ? String(pod.metadata.name) : "?";
    const containers = [
      ...(Array.isArray(status.initContainerStatuses) ? status.initContainerStatuses : []),
      ...(Array.isArray(status.containerStatuses) ? status.containerStatuses : []),
    ];
    for (const container of containers.filter(isRecord)) {
      const waiting = isRecord(container.state) && isRecord(container.state.waiting) ? container.state.waiting : undefined;
      if (waiting === undefined || !STUCK.has(String(waiting.reason))) continue;
      const message = typeof waiting.message === "string" ? `: ${waiting.message.slice(0, 200)}` : "";
      out.push(`${name} ${String(container.name)}: ${String(waiting.reason)}${message}`);
    }
  }
  return out.sort();
}

/**
 * helm.v3.Release: the manifest of the revision `helm upgrade` starts from,
 * its status (a pending revision blocks the upgrade), and the hooks the
 * upgrade runs. Undefined when the release cannot be read.
 */
async function releaseBase(client: KubeClient, input: LiveInput, section: LiveSection): Promise<RenderedObject[] | undefined> {
  const { name, namespace } = input.release;
  const stored = await storedReleases(client, name, namespace);
  const display = `release ${namespace}/${name}`;
  if (!Array.isArray(stored)) {
    const base = { id: `helm.sh/release/${namespace}/${name}`, display };
    section.objects.push(stored.status === 403 ? refused(base, stored, undefined, "list secrets") : failed(base, stored, undefined));
    section.counts[section.objects[0]?.outcome ?? "error"] = 1;
    return undefined;
  }
  const newest = stored[0];
  const base = upgradeBase(stored);
  section.release = { name, namespace };
  if (newest !== undefined) Object.assign(section.release, { revision: newest.revision, status: newest.status, chart: newest.chart });
  if (base !== undefined && base !== newest) section.release.comparedWith = base.revision;
  const upgrading = base !== undefined;
  section.hooks = hooksRun(input.objects, upgrading ? "upgrade" : "install");
  if (newest === undefined) section.notes.push(`no release ${name} in namespace ${namespace}: helm installs it`);
  if (newest !== undefined && PENDING.test(newest.status)) {
    section.objects.push({
      id: `helm.sh/release/${namespace}/${name}`,
      display,
      outcome: "blocked",
      message: `revision ${newest.revision} is ${newest.status}: Helm refuses the upgrade ("another operation (install/upgrade/rollback) is in progress")`,
      fix: `if nothing is running, roll it back (helm rollback ${name} -n ${namespace}) or delete its record, Secret sh.helm.release.v1.${name}.v${newest.revision}`,
    });
    section.counts.blocked = 1;
  } else if (newest?.status === "failed") {
    section.notes.push(
      `revision ${newest.revision} failed; helm upgrade starts from ${base === newest ? "it" : `revision ${base?.revision}, the last deployed`}`,
    );
  }
  return base === undefined ? [] : parseManifest(base.manifest, namespace, display);
}

/** The hooks an install or an upgrade runs, in Helm's order (weight, then kind and name); test hooks are `helm test`'s. */
function hooksRun(objects: readonly RenderedObject[], phase: "install" | "upgrade"): LiveHook[] {
  return objects
    .flatMap((object) => {
      const hook = object.hook;
      if (hook === undefined || hook.test || !hook.events.some((event) => event.endsWith(`-${phase}`))) return [];
      const events = hook.events.filter((event) => event.endsWith(`-${phase}`));
      return [{ id: object.id, display: displayName(object), events, weight: hook.weight, deletePolicies: hook.deletePolicies }];
    })
    .sort((a, b) => a.weight - b.weight || byText(a.display, b.display));
}

/** The resources the CRDs of a render add, by `group/Kind`: not served yet when the render is not deployed, created first by the same apply. */
export function crdResources(objects: readonly RenderedObject[]): Map<string, Resource> {
  const out = new Map<string, Resource>();
  for (const object of objects) {
    if (object.kind !== "CustomResourceDefinition" || !isRecord(object.body.spec)) continue;
    const spec = object.body.spec;
    const names = isRecord(spec.names) ? spec.names : {};
    out.set(`${String(spec.group)}/${String(names.kind)}`, { plural: String(names.plural), namespaced: spec.scope !== "Cluster" });
  }
  return out;
}

/** The object's URL on the server, or the report that the server does not serve its kind. */
async function locate(
  resourceOf: ReturnType<typeof discovery>,
  object: RenderedObject,
  served: ReadonlyMap<string, Resource>,
): Promise<string | LiveObjectReport> {
  const base = { id: object.id, display: displayName(object) };
  const resource = await resourceOf(object.apiVersion, object.kind);
  if (resource === undefined) {
    const group = object.apiVersion.includes("/") ? (object.apiVersion.split("/")[0] ?? "") : "";
    if (served.has(`${group}/${object.kind}`)) return { ...base, outcome: "create", fix: "its CRD is in the same chart: it is created first" };
    return {
      ...base,
      outcome: "unknown-kind",
      message: `no matches for kind "${object.kind}" in version "${object.apiVersion}"`,
      fix: "the cluster does not serve this kind: install its CRD first (dependsOn the chart that ships it), or the apiVersion was removed",
    };
  }
  const prefix = object.apiVersion.includes("/") ? `/apis/${object.apiVersion}` : `/api/${object.apiVersion}`;
  const namespace = resource.namespaced ? `/namespaces/${encodeURIComponent(object.namespace || "default")}` : "";
  return `${prefix}${namespace}/${resource.plural}/${encodeURIComponent(object.name)}`;
}

/** Each object's URL first, so that a kind with many objects in a namespace is read with one LIST. */
async function reviewAll(
  client: KubeClient,
  resourceOf: ReturnType<typeof discovery>,
  objects: readonly RenderedObject[],
  asking: Asking,
): Promise<LiveObjectReport[]> {
  const paths = await mapLimit(objects, CONCURRENCY, (object) => locate(resourceOf, object, asking.served));
  asking.read = batchedReads(
    client,
    paths.filter((path): path is string => typeof path === "string"),
  );
  return mapLimit(objects, CONCURRENCY, async (object, index) => {
    const path = paths[index];
    return typeof path === "string" ? reviewObject(client, object, path, asking) : (path as LiveObjectReport);
  });
}

/** Kinds with this many objects in one namespace are read with one LIST. */
const LIST_FROM = 3;

/**
 * GETs answered from one LIST per collection (kind and namespace) that has
 * LIST_FROM objects or more — never for Secrets, whose other values stay on
 * the server — and a GET of its own when the LIST is refused.
 */
function batchedReads(client: KubeClient, paths: readonly string[]): (path: string) => Promise<Answer> {
  const collection = (path: string) => path.slice(0, path.lastIndexOf("/"));
  const sizes = new Map<string, number>();
  for (const path of paths) sizes.set(collection(path), (sizes.get(collection(path)) ?? 0) + 1);
  const lists = new Map<string, Promise<Map<string, Record<string, unknown>> | undefined>>();
  return async (path) => {
    const where = collection(path);
    if ((sizes.get(where) ?? 0) < LIST_FROM || where.endsWith("/secrets")) return client.get(path);
    let list = lists.get(where);
    if (list === undefined) {
      list = client.get(where).then((answer) => {
        if (answer.status !== 200 || !isRecord(answer.body) || !Array.isArray(answer.body.items)) return undefined;
        const byName = new Map<string, Record<string, unknown>>();
        for (const item of answer.body.items.filter(isRecord)) if (isRecord(item.metadata)) byName.set(String(item.metadata.name), item);
        return byName;
      });
      lists.set(where, list);
    }
    const byName = await list;
    if (byName === undefined) return client.get(path);
    const item = byName.get(decodeURIComponent(path.slice(path.lastIndexOf("/") + 1)));
    return item === undefined ? { status: 404, body: { message: "not found" } } : { status: 200, body: item };
  };
}

async function reviewObject(client: KubeClient, object: RenderedObject, path: string, asking: Asking): Promise<LiveObjectReport> {
  const base = { id: object.id, display: displayName(object) };
  const got = await asking.read(path);
  if (got.status === 403) return refused(base, got, object);
  if (got.status !== 200 && got.status !== 404) return failed(base, got, object);
  const live = got.status === 200 && isRecord(got.body) ? got.body : undefined;
  if (live !== undefined) asking.seen.set(object.id, live);
  const managed = live === undefined ? [] : managedOf(live);
  const previous = asking.before.get(object.id);
  if (asking.release !== undefined && live !== undefined && previous === undefined) {
    const foreign = foreignTo(live, asking.release);
    if (foreign !== undefined) return { ...base, outcome: "conflict", message: foreign, fix: adoptionFix(asking.release) };
  }
  const manager = asking.force ? HELM_MANAGER : managed.find((entry) => entry.operation === "Apply" && PULUMI_MANAGER.test(entry.manager))?.manager;
  const applied = await client.dryRunApply(path, object.body, manager ?? NEW_MANAGER, asking.force);
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
      fix: asking.force
        ? "the object must be deleted and created again: helm upgrade fails on it (the Release's forceUpdate deletes and recreates it)"
        : "the object must be deleted and created again: helm.v4.Chart replaces it (and its replacement fails, see the diff)",
    };
  }
  if (applied.status === 403) return refused(base, applied, object);
  if (applied.status === 404 && /namespaces "[^"]+" not found/.test(messageOf(applied))) {
    return { ...base, outcome: "create", fix: `its namespace ${object.namespace} does not exist yet: deployCharts creates it first` };
  }
  if (applied.status !== 200 && applied.status !== 201) return failed(base, applied, object);
  if (live === undefined) {
    return previous === undefined
      ? { ...base, outcome: "create" }
      : { ...base, outcome: "create", fix: "deployed before and deleted since: the apply creates it again" };
  }
  // An object applied with no field besides its name (a bare ServiceAccount) has no managedFields at all: nobody else owns it.
  if (manager === undefined && (managed.length > 0 || previous === undefined)) {
    return {
      ...base,
      outcome: "adopt",
      owners: [...new Set(managed.map((entry) => entry.manager))].sort(),
      fix: "the object exists and Pulumi does not own it: the apply takes its fields over",
    };
  }
  const result = isRecord(applied.body) ? applied.body : {};
  const entry = entryOf(managedOf(result), manager ?? NEW_MANAGER);
  if (entry === undefined) return { ...base, outcome: "same" };
  const { fields, drift } = liveChanges({
    live,
    result,
    applied: entry,
    owned: manager === undefined ? undefined : entryOf(managed, manager),
    before: previous?.body,
    after: object.body,
    sealedBefore: asking.sealedBefore && object.kind === "Secret",
  });
  // helm upgrade's three-way merge also removes what the release set and the new render drops.
  if (asking.force && previous !== undefined) fields.push(...removedKeys(previous.body, object.body, live).filter((path) => !fields.includes(path)));
  if (fields.length === 0 && drift.length === 0) return { ...base, outcome: "same" };
  return { ...base, outcome: fields.length === 0 ? "drift" : "update", manager: manager ?? NEW_MANAGER, fields, ...(drift.length === 0 ? {} : { drift }) };
}

/** An object the new side no longer renders: the deploy deletes it, if it is still there. */
async function reviewGone(client: KubeClient, resourceOf: ReturnType<typeof discovery>, object: RenderedObject): Promise<LiveObjectReport> {
  const base = { id: object.id, display: displayName(object) };
  const path = await locate(resourceOf, object, new Map());
  if (typeof path !== "string") return { ...base, outcome: "same", fix: "its kind is no longer served: nothing to delete" };
  const got = await client.get(path);
  if (got.status === 404) return { ...base, outcome: "same" };
  if (got.status === 403) return refused(base, got, object);
  if (got.status !== 200) return failed(base, got, object);
  const keep = isRecord(got.body) && annotationsOf(got.body)["helm.sh/resource-policy"] === "keep";
  return keep ? { ...base, outcome: "same", fix: "helm.sh/resource-policy: keep: left in place" } : { ...base, outcome: "delete" };
}

/** Why Helm refuses to take over a live object that is not in the release, or undefined when its ownership annotations name the release. */
function foreignTo(live: Record<string, unknown>, release: { name: string; namespace: string }): string | undefined {
  const annotations = annotationsOf(live);
  const name = annotations["meta.helm.sh/release-name"];
  const namespace = annotations["meta.helm.sh/release-namespace"];
  if (name === release.name && namespace === release.namespace) return undefined;
  const owner = name === undefined ? "no release" : `release ${namespace}/${name}`;
  return `it exists and belongs to ${owner}: Helm refuses it ("invalid ownership metadata; resource exists and cannot be imported into the current release")`;
}

function adoptionFix(release: { name: string; namespace: string }): string {
  return `delete it, or annotate it meta.helm.sh/release-name=${release.name} and meta.helm.sh/release-namespace=${release.namespace} and label it app.kubernetes.io/managed-by=Helm`;
}

function annotationsOf(object: Record<string, unknown>): Record<string, unknown> {
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  return isRecord(metadata.annotations) ? metadata.annotations : {};
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
function hidden(message: string, object: RenderedObject | undefined): string {
  return object === undefined || object.kind === "Secret" ? message.replace(/Invalid value: ("(?:[^"\\]|\\.)*"|[^:]*):/g, "Invalid value: (hidden):") : message;
}

function refused(base: { id: string; display: string }, answer: Answer, object: RenderedObject | undefined, needs = "get and patch"): LiveObjectReport {
  return {
    ...base,
    outcome: "forbidden",
    message: hidden(messageOf(answer), object),
    fix: `the deploying identity lacks this verb: grant it (the review needs ${needs})`,
  };
}

function failed(base: { id: string; display: string }, answer: Answer, object: RenderedObject | undefined): LiveObjectReport {
  return { ...base, outcome: "error", message: `${answer.status}: ${hidden(messageOf(answer), object)}` };
}
