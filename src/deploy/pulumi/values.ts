import * as pulumi from "@pulumi/pulumi";
import { ChartroomError } from "../../errors/index.js";
import { isPlainObject } from "../../util/json.js";
import { mergeLayers, type Values } from "../../values/coalesce.js";
import { deferredValue } from "../../values/deferred.js";

// Values given in code may hold Pulumi Outputs and Promises anywhere: the
// whole chart's values, a nested map, an item of a list. They are resolved
// first, then merged over the values files exactly as Helm merges layers
// (maps merge, lists replace, null removes a default).

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

function isPending(value: unknown): boolean {
  return pulumi.Output.isInstance(value) || isThenable(value);
}

/**
 * The code values with every Output and Promise replaced by a deferred
 * marker, for validation before anything resolves: known parts are checked,
 * deferred ones are known to be there.
 */
export function checkable(value: unknown): unknown {
  if (isPending(value)) return deferredValue();
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, checkable(item)]));
  if (Array.isArray(value)) return value.map(checkable);
  return value;
}

/** Dotted paths of the Outputs in the code values that are not known yet (during a preview). */
export async function unknownPaths(value: unknown, path: string[] = []): Promise<string[]> {
  if (pulumi.Output.isInstance(value)) {
    const known = await (value as unknown as { isKnown: Promise<boolean> }).isKnown;
    if (!known) return [path.join(".") || "(the whole values)"];
    return unknownPaths(await (value as unknown as { promise(): Promise<unknown> }).promise(), path);
  }
  if (isThenable(value)) return unknownPaths(await value, path);
  const children = isPlainObject(value) ? Object.entries(value) : Array.isArray(value) ? value.map((item, i) => [`[${i}]`, item] as const) : [];
  const found = await Promise.all(children.map(([key, item]) => unknownPaths(item, [...path, String(key)])));
  return found.flat().map((p) => p.replace(/\.\[/g, "["));
}

/**
 * The values handed to helm: the stack's values files, then the code values
 * once resolved, merged as Helm merges layers. Secret when any part of the
 * code values is; unknown (during a preview) while any part is unknown.
 */
export function mergedValues(fileValues: Values, code: unknown, validate: (resolved: Values) => void): pulumi.Output<Values> {
  return pulumi.output(code ?? {}).apply((resolved) => {
    if (!isPlainObject(resolved)) {
      throw new ChartroomError(
        "VALUES_INVALID",
        `values given in code resolved to ${Array.isArray(resolved) ? "a list" : typeof resolved}, not a map of values`,
        {
          hint: "pass a map: values: { <chart>: { key: value } } (Outputs may stand anywhere inside it)",
        },
      );
    }
    // Now every part is known: check all of it, as `chartroom check` would.
    validate(resolved as Values);
    return mergeLayers([fileValues, resolved as Values]);
  });
}
