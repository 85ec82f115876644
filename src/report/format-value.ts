import { stringify } from "yaml";
import { isRecord } from "../util/json.js";

/** A value on one line when it is short, else YAML lines (for text and markdown reports). */
export function formatValue(value: unknown): string[] {
  if (isRecord(value) && value.masked === true && typeof value.bytes === "number") return [`<hidden, ${value.bytes} bytes>`];
  if (value === undefined) return ["(none)"];
  const inline = JSON.stringify(value);
  if (inline.length <= 80 && !inline.includes("\\n")) return [inline];
  return stringify(value, { lineWidth: 0 }).trimEnd().split("\n");
}
