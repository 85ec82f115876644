import { externalRefs, schemaPointer as pointer, valueAt as at, walkSchema as walk } from "../chart/schema-refs.js";
import { isRecord } from "../util/json.js";
import { compilePattern } from "../util/re2.js";

// A chart's values.schema.json is the chart author's, not the user's: read
// with suspicion. A `$ref` reaches only inside the schema itself (never a
// URL or a file: chartroom makes no request for a schema), and a pattern
// must be one RE2 compiles (Helm's Go regexp refuses the rest). What breaks
// these rules is reported and taken out before the schema is compiled.

/** Something in a schema chartroom will not follow or run. */
export interface SchemaProblem {
  /** JSON pointer of the node within the schema file, e.g. `#/properties/image/$ref`. */
  pointer: string;
  /** `meta-schema`: a `$schema` naming one Helm does not carry (Helm 4 fetches it). */
  kind: "external-ref" | "meta-schema" | "pattern" | "invalid";
  /** The reference or the pattern, as written. */
  value: string;
  /** Why it is refused. */
  reason: string;
}

/**
 * The schema with every external reference and every pattern RE2 refuses
 * replaced (`{}` for a reference, nothing for a pattern), and what was
 * found. The same object comes back when nothing was found.
 */
export function guardSchema(schema: unknown): { schema: unknown; problems: SchemaProblem[] } {
  const problems: SchemaProblem[] = [];
  const edits: { path: (string | number)[]; replace: "empty" | "drop" | "dropKey"; key?: string }[] = [];
  for (const { path, keyword, ref } of externalRefs(schema)) {
    // A meta-schema Helm does not carry: the part is read as its dialect's keywords say (draft-07 by default), unfetched.
    const meta = keyword === "$schema";
    problems.push({
      pointer: pointer([...path, keyword]),
      kind: meta ? "meta-schema" : "external-ref",
      value: ref,
      reason: meta
        ? "it names a meta-schema Helm does not carry, which Helm 4 would fetch; chartroom never fetches one, and reads the schema without it"
        : "it points outside the schema file; chartroom never fetches a schema's references (Helm would)",
    });
    edits.push(meta ? { path, replace: "dropKey", key: keyword } : { path, replace: "empty" });
  }
  walk(schema, (node, path) => {
    if (typeof node.pattern === "string") {
      const compiled = compilePattern(node.pattern);
      if ("error" in compiled) {
        problems.push({
          pointer: pointer([...path, "pattern"]),
          kind: "pattern",
          value: node.pattern,
          reason: `RE2 (Helm's regular expressions) refuses it: ${compiled.error}`,
        });
        edits.push({ path, replace: "drop", key: "pattern" });
      }
    }
    if (isRecord(node.patternProperties)) {
      for (const key of Object.keys(node.patternProperties)) {
        const compiled = compilePattern(key);
        if (!("error" in compiled)) continue;
        problems.push({
          pointer: pointer([...path, "patternProperties", key]),
          kind: "pattern",
          value: key,
          reason: `RE2 (Helm's regular expressions) refuses it: ${compiled.error}`,
        });
        edits.push({ path: [...path, "patternProperties"], replace: "dropKey", key });
      }
    }
  });
  if (edits.length === 0) return { schema, problems };
  const copy = structuredClone(schema);
  for (const edit of edits) {
    const parent = edit.path.length === 0 ? undefined : at(copy, edit.path.slice(0, -1));
    const node = at(copy, edit.path);
    if (!isRecord(node)) continue;
    if (edit.replace === "empty") {
      if (parent === undefined) return { schema: {}, problems };
      (parent as Record<string | number, unknown>)[edit.path.at(-1) as string | number] = {};
    } else if (edit.key !== undefined) {
      delete node[edit.key];
    }
  }
  return { schema: copy, problems };
}

/** Enums longer than this are checked for duplicates here, in linear time, and shortened for the meta-schema check (whose uniqueItems is quadratic). */
const LONG_ENUM = 64;

/**
 * The schema as the meta-schema check should see it: every long enum cut to
 * its first items, after its uniqueness was checked here. A 300,000-value
 * enum otherwise takes minutes to check against the meta-schema.
 */
export function forMetaCheck(schema: unknown): { schema: unknown; problems: SchemaProblem[] } {
  const problems: SchemaProblem[] = [];
  const long: (string | number)[][] = [];
  walk(schema, (node, path) => {
    if (!Array.isArray(node.enum) || node.enum.length <= LONG_ENUM) return;
    long.push(path);
    const seen = new Set<string>();
    for (const item of node.enum) {
      const key = JSON.stringify(item);
      if (seen.has(key)) {
        problems.push({
          pointer: pointer([...path, "enum"]),
          kind: "invalid",
          value: key,
          reason: "the enum lists a value twice, which the JSON schema meta-schema forbids",
        });
        break;
      }
      seen.add(key);
    }
  });
  if (long.length === 0) return { schema, problems };
  const copy = structuredClone(schema);
  for (const path of long) {
    const node = at(copy, path) as Record<string, unknown[]>;
    node.enum = (node.enum ?? []).slice(0, LONG_ENUM);
  }
  return { schema: copy, problems };
}
