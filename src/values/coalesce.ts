import { isRecord } from "../util/json.js";

export type Values = Record<string, unknown>;

/**
 * User layers merged in order, as Helm merges repeated `-f` files: maps merge
 * deeply, the later layer wins, lists and scalars replace, `null` is kept (it
 * means "remove the default" when coalesced with the chart's values).
 */
export function mergeLayers(layers: readonly Values[]): Values {
  let out: Values = {};
  for (const layer of layers) out = mergeTwo(out, layer);
  return out;
}

function mergeTwo(base: Values, over: Values): Values {
  const out: Values = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isRecord(current) && isRecord(value) ? mergeTwo(current, value) : value;
  }
  return out;
}

/**
 * User values over chart defaults, as Helm coalesces them: maps merge deeply,
 * lists replace, and a user `null` removes the default key.
 */
export function coalesce(user: Values, defaults: Values): Values {
  const out: Values = {};
  for (const [key, value] of Object.entries(defaults)) {
    if (!Object.hasOwn(user, key)) {
      if (value !== null) out[key] = value;
      continue;
    }
    const mine = user[key];
    if (mine === null) continue;
    out[key] = isRecord(mine) && isRecord(value) ? coalesce(mine, value) : mine;
  }
  for (const [key, value] of Object.entries(user)) {
    if (!Object.hasOwn(defaults, key) && value !== null) out[key] = isRecord(value) ? coalesce(value, {}) : value;
  }
  return out;
}

/** The values a subchart sees: the parent's section for it over its own defaults, with the parent's globals. */
export function subchartView(parent: Values, key: string, defaults: Values): Values {
  const section = isRecord(parent[key]) ? (parent[key] as Values) : {};
  const values = coalesce(section, defaults);
  const parentGlobal = isRecord(parent.global) ? parent.global : {};
  const ownGlobal = isRecord(values.global) ? values.global : {};
  if (Object.keys(parentGlobal).length > 0 || Object.keys(ownGlobal).length > 0) values.global = coalesce(parentGlobal, ownGlobal);
  return values;
}
