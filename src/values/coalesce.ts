import { isPlainObject, isRecord } from "../util/json.js";

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

// Only plain objects merge: a Pulumi Output (an object too) is a leaf value.
function mergeTwo(base: Values, over: Values): Values {
  const out: Values = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? mergeTwo(current, value) : value;
  }
  return out;
}

/**
 * User values over chart defaults, as Helm coalesces them (chartutil's
 * coalesceValues): maps merge deeply, lists and scalars replace, a user
 * `null` removes the default key. What Helm 3 and 4 do beyond that is kept,
 * because the templates see it: a `null` among the defaults stays, and a
 * user `null` for a key the defaults do not have stays too, at any depth.
 */
export function coalesce(user: Values, defaults: Values): Values {
  const out: Values = { ...user };
  for (const [key, value] of Object.entries(defaults)) {
    if (!Object.hasOwn(user, key)) {
      out[key] = value;
      continue;
    }
    const mine = user[key];
    if (mine === null) delete out[key];
    else if (isRecord(mine) && isRecord(value)) out[key] = coalesce(mine, value);
  }
  return out;
}

/**
 * The values a subchart sees: the parent's section for it (the parent's
 * defaults for it, then the user's, nulls kept so they can remove the
 * subchart's own defaults) over the subchart's defaults, with the parent's
 * globals over its own.
 */
export function subchartView(parentUser: Values, parentDefaults: Values, key: string, defaults: Values): Values {
  const section = mergeLayers([
    isRecord(parentDefaults[key]) ? (parentDefaults[key] as Values) : {},
    isRecord(parentUser[key]) ? (parentUser[key] as Values) : {},
  ]);
  const values = coalesce(section, defaults);
  const parentGlobal = coalesce(isRecord(parentUser.global) ? parentUser.global : {}, isRecord(parentDefaults.global) ? parentDefaults.global : {});
  const ownGlobal = isRecord(values.global) ? values.global : {};
  if (Object.keys(parentGlobal).length > 0 || Object.keys(ownGlobal).length > 0) values.global = coalesce(parentGlobal, ownGlobal);
  return values;
}

/** The user-side section a subchart gets, nulls kept (for its own subcharts in turn). */
export function subchartSection(parentUser: Values, parentDefaults: Values, key: string): Values {
  return mergeLayers([isRecord(parentDefaults[key]) ? (parentDefaults[key] as Values) : {}, isRecord(parentUser[key]) ? (parentUser[key] as Values) : {}]);
}
