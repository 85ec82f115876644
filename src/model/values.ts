/** One values layer: where it came from (for messages) and its YAML text. */
export interface ValuesLayer {
  name: string;
  text: string;
  /** The text parsed, when the reader has it already (never part of a render's key: the text is). */
  values?: Record<string, unknown>;
}
