import { FAILSAFE_SCHEMA, Type, type Schema } from "js-yaml";

// How Kubernetes reads a manifest's plain scalars: sigs.k8s.io/yaml decodes
// with go-yaml v2, which follows YAML 1.1, not 1.2. `0755` is 493 (octal),
// `yes`, `on`, `y` are true, `1_000` is 1000. A plain scalar that looks like
// a timestamp stays a string (go-yaml v2 keeps it one for interface{}).
const WORDS = new Map<string, unknown>([
  ...["y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"].map((word) => [word, true] as const),
  ...["n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"].map((word) => [word, false] as const),
  ...["", "~", "null", "Null", "NULL"].map((word) => [word, null] as const),
  ...[".nan", ".NaN", ".NAN"].map((word) => [word, Number.NaN] as const),
  ...[".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"].map((word) => [word, Number.POSITIVE_INFINITY] as const),
  ...["-.inf", "-.Inf", "-.INF"].map((word) => [word, Number.NEGATIVE_INFINITY] as const),
]);

// Go's strconv.ParseInt(s, 0, 64): 0x, 0o, 0b prefixes, and a leading 0 for octal.
const GO_INT = /^[-+]?(?:0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/;
const DECIMAL = /^[-+]?[1-9][0-9]{0,14}$/;
const YAML_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;

/** A plain (unquoted) scalar as Kubernetes reads it; the text itself when it is a string. */
export function kubernetesScalar(text: string): unknown {
  // Every word is at most five characters: a long text is not hashed for the lookup.
  if (text.length <= 5) {
    const word = WORDS.get(text);
    if (word !== undefined) return word;
  }
  const first = text.charCodeAt(0);
  if (first === 46 /* . */) return YAML_FLOAT.test(text) ? Number(text) : text;
  const signOrDigit = first === 43 || first === 45 || (first >= 48 && first <= 57);
  if (!signOrDigit) return text;
  if (DECIMAL.test(text)) return Number(text) + 0;
  const plain = text.includes("_") ? text.replace(/_/g, "") : text;
  if (GO_INT.test(plain)) return goInt(plain);
  if (YAML_FLOAT.test(plain)) return Number(plain);
  return text;
}

function goInt(plain: string): number {
  const negative = plain.startsWith("-");
  const digits = plain.replace(/^[-+]/, "");
  const prefix = digits.slice(0, 2).toLowerCase();
  const value =
    prefix === "0x"
      ? Number.parseInt(digits.slice(2), 16)
      : prefix === "0o"
        ? Number.parseInt(digits.slice(2), 8)
        : prefix === "0b"
          ? Number.parseInt(digits.slice(2), 2)
          : digits.length > 1 && digits.startsWith("0")
            ? Number.parseInt(digits, 8)
            : Number(digits);
  // -0 is the integer 0 (JSON has no negative zero integer).
  return (negative ? -value : value) + 0;
}

const plainScalar = new Type("tag:yaml.org,2002:kubernetes-plain", {
  kind: "scalar",
  resolve: (data: string | null) => data !== null && kubernetesScalar(data) !== data,
  construct: (data: string | null) => (data === null ? null : kubernetesScalar(data)),
});

// `<<: *defaults` merges a map, as go-yaml does (js-yaml knows the tag).
const mergeKey = new Type("tag:yaml.org,2002:merge", { kind: "scalar", resolve: (data: string | null) => data === "<<" });

/** js-yaml reading scalars as Kubernetes does (YAML 1.1 through go-yaml v2), merge keys included. */
export const KUBERNETES_SCHEMA: Schema = FAILSAFE_SCHEMA.extend({ implicit: [plainScalar, mergeKey] });
