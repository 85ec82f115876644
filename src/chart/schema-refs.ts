import { isRecord } from "../util/json.js";

// What in a chart's values.schema.json points outside the file: a `$ref` to
// a URL or another file. Helm fetches those when it validates values
// (HTTP, file://); chartroom never does, and renders such a chart with
// Helm's schema validation off (it validates the values itself).

// Meta-schemas every validator carries: referring to them fetches nothing.
// Helm 4 fetches any other (draft-05 and draft-03 included), in `$ref` and in `$schema`.
const META = /^https?:\/\/json-schema\.org\/((draft-0[467]|draft\/20(19-09|20-12))\/)?schema#?$/;

export const REF_KEYWORDS = ["$ref", "$dynamicRef", "$recursiveRef"] as const;

/** One reference out of the schema file: where it is (a JSON pointer) and what it names. */
export interface ExternalRef {
  /** The JSON pointer of the node holding the reference. */
  path: (string | number)[];
  /** `$schema` names a meta-schema: one Helm does not carry is fetched like a reference. */
  keyword: (typeof REF_KEYWORDS)[number] | "$schema";
  ref: string;
}

/**
 * Every reference that leaves the schema (anything but `#…`, a meta-schema,
 * or an `$id` the schema declares itself), and every `$schema`, at any
 * depth, naming a meta-schema other than the ones Helm carries.
 */
export function externalRefs(schema: unknown): ExternalRef[] {
  const ids = declaredIds(schema);
  const out: ExternalRef[] = [];
  walkSchema(schema, (node, path) => {
    for (const keyword of REF_KEYWORDS) {
      const ref = node[keyword];
      if (typeof ref === "string" && !isInternal(ref, ids)) out.push({ path, keyword, ref });
    }
    if (typeof node.$schema === "string" && !META.test(node.$schema)) out.push({ path, keyword: "$schema", ref: node.$schema });
  });
  return out;
}

function isInternal(ref: string, ids: ReadonlySet<string>): boolean {
  if (ref.startsWith("#")) return true;
  if (META.test(ref)) return true;
  const base = ref.split("#")[0] ?? "";
  return ids.has(base);
}

/** The `$id`s (and draft-04 `id`s) the schema declares for its own parts. */
function declaredIds(schema: unknown): Set<string> {
  const ids = new Set<string>();
  walkSchema(schema, (node) => {
    for (const key of ["$id", "id"]) {
      const id = node[key];
      if (typeof id === "string" && id !== "") ids.add(id.split("#")[0] ?? "");
    }
  });
  ids.delete("");
  return ids;
}

/** Every object node with its path, iteratively (no recursion over a hostile depth). */
export function walkSchema(root: unknown, visit: (node: Record<string, unknown>, path: (string | number)[]) => void): void {
  const stack: [unknown, (string | number)[]][] = [[root, []]];
  while (stack.length > 0) {
    const [node, path] = stack.pop() as [unknown, (string | number)[]];
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) stack.push([item, [...path, i]]);
    } else if (isRecord(node)) {
      visit(node, path);
      for (const [key, child] of Object.entries(node)) {
        // `enum`, `const`, `default` and `examples` hold data, not schemas.
        if (key === "enum" || key === "const" || key === "default" || key === "examples") continue;
        if (typeof child === "object" && child !== null) stack.push([child, [...path, key]]);
      }
    }
  }
}

export function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let node = root;
  for (const step of path) node = (node as Record<string | number, unknown> | undefined)?.[step];
  return node;
}

export function schemaPointer(path: readonly (string | number)[]): string {
  return `#/${path.map((step) => String(step).replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;
}
