/** One values layer: where it came from (for messages) and its YAML text. */
export interface ValuesLayer {
  name: string;
  text: string;
}
