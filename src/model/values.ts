/** One values layer: where it came from (for messages) and its YAML text. */
export interface ValuesLayer {
  name: string;
  text: string;
  /** The text parsed, when the reader has it already (never part of a render's key: the text is). */
  values?: Record<string, unknown>;
  /**
   * A `--set`, `--set-string` or `--set-file` flag: helm gets the flag itself
   * (so it types the values as `helm template --set` does), applied after
   * every values file as Helm applies them; `text` and `values` hold what the
   * flag alone sets.
   */
  flag?: SetFlag;
}

/** One `--set`-style flag as given (a `--set-file`'s paths made absolute, with their texts). */
export interface SetFlag {
  option: "set" | "set-string" | "set-file";
  arg: string;
  /** `--set-file`: each path the arg names, and its text. */
  files?: Readonly<Record<string, string>>;
}
