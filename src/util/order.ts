/**
 * Strings in code-unit order (as Go's sort.Strings, so as Helm orders):
 * the same on every machine whatever its locale, where localeCompare follows
 * the locale, and without loading ICU's collation (≈9 ms the first time).
 */
export function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
