import { isRecord } from "../util/json.js";
import { testPattern } from "../util/re2.js";

/** A node of a JSON schema, with local `$ref`s (`#/definitions/…`, `#/$defs/…`) followed. */
export function schemaAt(root: unknown, node: unknown, key: string): unknown {
  const resolved = resolveRef(root, node);
  if (!isRecord(resolved)) return undefined;
  const properties = isRecord(resolved.properties) ? resolved.properties : {};
  if (Object.hasOwn(properties, key)) return resolveRef(root, properties[key]);
  if (isRecord(resolved.patternProperties)) {
    for (const [pattern, schema] of Object.entries(resolved.patternProperties)) {
      // With RE2's semantics, as Helm matches them: a chart's pattern cannot hang the run.
      if (testPattern(pattern, key)) return resolveRef(root, schema);
    }
  }
  if (isRecord(resolved.additionalProperties)) return resolveRef(root, resolved.additionalProperties);
  return undefined;
}

export function resolveRef(root: unknown, node: unknown, depth = 0): unknown {
  if (!isRecord(node) || typeof node.$ref !== "string" || depth > 20) return node;
  const ref = node.$ref;
  if (!ref.startsWith("#/")) return node;
  let target: unknown = root;
  for (const part of ref.slice(2).split("/")) target = isRecord(target) ? target[part.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
  return resolveRef(root, target, depth + 1);
}

/** Keys the schema names at this node. */
export function schemaKeys(root: unknown, node: unknown): string[] {
  const resolved = resolveRef(root, node);
  return isRecord(resolved) && isRecord(resolved.properties) ? Object.keys(resolved.properties) : [];
}

/** A schema node that accepts keys it does not name. */
export function schemaIsOpen(root: unknown, node: unknown): boolean {
  const resolved = resolveRef(root, node);
  if (!isRecord(resolved)) return false;
  return resolved.additionalProperties === true || isRecord(resolved.additionalProperties) || isRecord(resolved.patternProperties);
}

export function schemaType(root: unknown, node: unknown): string | undefined {
  const resolved = resolveRef(root, node);
  if (!isRecord(resolved)) return undefined;
  if (typeof resolved.type === "string") return resolved.type;
  if (Array.isArray(resolved.type)) return resolved.type.join("|");
  return undefined;
}

export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}
