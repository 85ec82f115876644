import { load } from "js-yaml";
import { ChartroomError } from "../errors/index.js";
import { isRecord } from "../util/json.js";
import { parseBlockYaml, type SharedBlocks } from "../util/fast-yaml.js";
import { KUBERNETES_SCHEMA } from "../util/kube-yaml.js";
import { CLUSTER_SCOPED, groupOf } from "./kinds.js";
import { objectId, type HookInfo, type RenderedObject } from "../model/objects.js";

/**
 * Parse `helm template` output: documents split on `---`, `# Source:` kept,
 * empty documents skipped, `List` kinds expanded, namespaces defaulted for
 * namespaced kinds (built-in cluster-scoped kinds known; CRD scopes taken
 * from the CRDs in the same stream).
 */
export function parseManifest(text: string, namespace: string, label: string, shared?: SharedBlocks): RenderedObject[] {
  const raw: { body: Record<string, unknown>; source?: string }[] = [];
  for (const document of text.split(/^---[ \t]*$/m)) {
    const source = sourceOf(document);
    // A template switched off by values renders only its `# Source:` comment.
    // Stryker disable next-line ConditionalExpression: a shortcut past the parsers, which skip such a document too.
    if (onlyComments(document)) continue;
    // The fast reader takes the plain block YAML templates produce; js-yaml the rest.
    // Both read scalars as Kubernetes does (YAML 1.1: 0755 is 493, yes is true).
    let value: unknown = parseBlockYaml(document, shared);
    try {
      // Stryker disable next-line ConditionalExpression: js-yaml gives what the fast reader gave (fast-yaml-edges holds them equal).
      if (value === undefined) value = load(document, { schema: KUBERNETES_SCHEMA });
    } catch (error) {
      throw new ChartroomError("HELM_FAILED", `${label} rendered invalid YAML${source ? ` in ${source}` : ""}: ${(error as Error).message.split("\n")[0]}`, {
        place: { chart: label, file: source },
        hint: "the chart's template produces broken YAML with these values",
      });
    }
    if (!isRecord(value)) continue;
    if (typeof value.kind === "string" && value.kind.endsWith("List") && Array.isArray(value.items)) {
      for (const item of value.items) if (isRecord(item)) raw.push({ body: item, source });
    } else {
      raw.push({ body: value, source });
    }
  }
  return objectsOf(raw, namespace);
}

/**
 * Objects from parsed bodies: identity, and the release namespace given to
 * namespaced objects that name none (a CRD among them decides its kind's scope).
 */
export function objectsOf(raw: readonly { body: Record<string, unknown>; source?: string }[], namespace: string): RenderedObject[] {
  const scopes = crdScopes(raw.map((item) => item.body));
  return raw.filter((item) => typeof item.body.kind === "string").map((item) => toObject(item.body, item.source, namespace, scopes));
}

/** The `# Source:` line, looked for only where Helm writes it: before the content. */
function sourceOf(document: string): string | undefined {
  const at = document.indexOf("# Source: ");
  if (at === -1) return undefined;
  const end = document.indexOf("\n", at);
  return document.slice(at + "# Source: ".length, end === -1 ? undefined : end).trim();
}

// Stryker disable all: a shortcut (see its one use); parsing such a document gives no object either.
function onlyComments(document: string): boolean {
  let start = 0;
  while (start < document.length) {
    const end = document.indexOf("\n", start);
    const line = document.slice(start, end === -1 ? document.length : end).trim();
    if (line !== "" && !line.startsWith("#")) return false;
    if (end === -1) break;
    start = end + 1;
  }
  return true;
}
// Stryker restore all

function crdScopes(bodies: Record<string, unknown>[]): Map<string, string> {
  const scopes = new Map<string, string>();
  for (const body of bodies) {
    if (body.kind !== "CustomResourceDefinition" || !isRecord(body.spec) || !isRecord(body.spec.names)) continue;
    scopes.set(`${String(body.spec.group)}/${String(body.spec.names.kind)}`, String(body.spec.scope ?? "Namespaced"));
  }
  return scopes;
}

function toObject(body: Record<string, unknown>, source: string | undefined, namespace: string, scopes: Map<string, string>): RenderedObject {
  const apiVersion = String(body.apiVersion ?? "");
  const kind = String(body.kind);
  const group = groupOf(apiVersion);
  const metadata = isRecord(body.metadata) ? body.metadata : {};
  const clusterScoped = CLUSTER_SCOPED.has(`${group}/${kind}`) || scopes.get(`${group}/${kind}`) === "Cluster";
  const objectNamespace = clusterScoped ? "" : typeof metadata.namespace === "string" && metadata.namespace !== "" ? metadata.namespace : namespace;
  const name = String(metadata.name ?? metadata.generateName ?? "");
  // Helm's install and the Pulumi provider both give a namespaced object the
  // release namespace when its template names none: that is what is applied.
  // Copied, not mutated: parsed blocks are shared between diff sides.
  const applied = clusterScoped || metadata.namespace === objectNamespace ? body : { ...body, metadata: { ...metadata, namespace: objectNamespace } };
  const object: RenderedObject = { id: objectId(group, kind, objectNamespace, name), apiVersion, group, kind, namespace: objectNamespace, name, body: applied };
  if (source !== undefined) object.source = source;
  const hook = hookInfo(metadata);
  if (hook !== undefined) object.hook = hook;
  return object;
}

function hookInfo(metadata: Record<string, unknown>): HookInfo | undefined {
  const annotations = isRecord(metadata.annotations) ? metadata.annotations : {};
  const events = annotations["helm.sh/hook"];
  if (typeof events !== "string") return undefined;
  const list = events
    .split(",")
    .map((event) => event.trim())
    .filter(Boolean);
  const policies = annotations["helm.sh/hook-delete-policy"];
  return {
    events: list,
    weight: Number(annotations["helm.sh/hook-weight"] ?? 0) || 0,
    deletePolicies:
      typeof policies === "string"
        ? policies
            .split(",")
            .map((p) => p.trim())
            .filter(Boolean)
        : [],
    test: list.every((event) => event === "test" || event.startsWith("test-")),
  };
}
