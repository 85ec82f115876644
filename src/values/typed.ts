/**
 * Each chart's values type, by chart key. Empty here: `chartroom types`
 * writes chartroom.types.ts, which augments it with one entry per chart.
 */
// biome-ignore lint/suspicious/noEmptyInterface: empty on purpose; chartroom.types.ts merges into it (a type alias could not be merged).
export interface ChartValues {}

/** What code may pass for a chart: any part of its values, deeply. */
export type PartialValues<T> = T extends readonly (infer Item)[] ? readonly Item[] : T extends object ? { [K in keyof T]?: PartialValues<T[K]> | null } : T;

/** Values for chart `K`: typed from its schema once `chartroom types` has run, else any map. */
export type ValuesOf<K extends string> = K extends keyof ChartValues ? PartialValues<ChartValues[K]> : Record<string, unknown>;

/** The chart names values can be given for: the declared charts once `chartroom types` has run, any name before. */
export type ChartKey = [keyof ChartValues] extends [never] ? string : keyof ChartValues & string;

/** Values for one chart, checked by tsc against the chart's generated type (an undeclared chart name is an error too). */
export function chartValues<K extends ChartKey>(chart: K, values: ValuesOf<K>): { chart: K; values: ValuesOf<K> } {
  return { chart, values };
}
