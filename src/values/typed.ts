/**
 * Each chart's values type, by chart key. Empty here: `chartroom types`
 * writes chartroom.types.ts, which augments it with one entry per chart.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface ChartValues {}

/** What code may pass for a chart: any part of its values, deeply. */
export type PartialValues<T> = T extends readonly (infer Item)[]
  ? readonly Item[]
  : T extends object
    ? { [K in keyof T]?: PartialValues<T[K]> | null }
    : T;

/** Values for chart `K`: typed from its schema once `chartroom types` has run, else any map. */
export type ValuesOf<K extends string> = K extends keyof ChartValues ? PartialValues<ChartValues[K]> : Record<string, unknown>;

/** Values for one chart, checked by tsc against the chart's generated type. */
export function chartValues<K extends keyof ChartValues | (string & {})>(chart: K, values: ValuesOf<K>): { chart: K; values: ValuesOf<K> } {
  return { chart, values };
}
