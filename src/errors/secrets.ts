// Every secret chartroom learns (a credential read from the environment, a
// value under a secret-looking key, a value a rendered Secret holds) is
// remembered here, so that any text leaving the process (errors, logs,
// reports in every format) can be scrubbed of it, whatever path it took and
// whatever form it took on the way: escaped for JSON, HTML or YAML,
// URL-encoded, base64-encoded, or one line of a multi-line value.

const known = new Set<string>();
/** Each form a secret can take in output, with whether it must stand as a whole token. */
const forms = new Map<string, boolean>();

/** Shorter values are masked only as whole tokens (`admin`, never the `admin` of `administrator`). */
const WHOLE_WORD_BELOW = 8;
/** Values shorter than this are not secrets anyone could mask in free text (a `1` would mask every 1). */
const MIN_LENGTH = 3;
/** A line of a multi-line secret shorter than this (`}`, `---`) is too common to mask alone. */
const MIN_LINE = 6;

// One expression over every form, longest first, rebuilt when a secret is added:
// redaction is one pass over the text however many secrets there are.
let pattern: RegExp | undefined;

export function rememberSecret(value: string): void {
  if (value.length < MIN_LENGTH || known.has(value)) return;
  known.add(value);
  for (const form of formsOf(value)) {
    if (form.length < MIN_LENGTH) continue;
    // A short form must be a whole token; a long one is masked wherever it stands.
    const whole = form.length < WHOLE_WORD_BELOW;
    forms.set(form, (forms.get(form) ?? true) && whole);
  }
  pattern = undefined;
}

/**
 * A secret-looking value a chart publishes as its default: remembered only
 * when long enough to be masked wherever it stands. A short one ("root",
 * vault's dev root token; "admin") is a word anyone can read in the chart,
 * and masked as a whole token it would hide chartroom's own words (the
 * run-as-root rule printed as "run-as-***") and other charts' names.
 */
export function rememberPublished(value: string): void {
  if (value.length >= WHOLE_WORD_BELOW) rememberSecret(value);
}

/** Every form in which a secret may reach output. */
export function formsOf(value: string): string[] {
  const out = new Set<string>([value]);
  const add = (form: string) => {
    if (form !== "") out.add(form);
  };
  add(JSON.stringify(value).slice(1, -1));
  // Go's encoding/json (Helm's toJson) also escapes <, > and & as \u003c, \u003e, \u0026.
  add(goJson(value));
  add(htmlEscape(value));
  add(htmlEscape(JSON.stringify(value).slice(1, -1)));
  add(markdownEscape(value));
  add(markdownEscape(JSON.stringify(value).slice(1, -1)));
  add(value.replace(/\|/g, "\\|"));
  add(value.replace(/'/g, "''"));
  add(encodeURIComponent(value));
  add(Buffer.from(value).toString("base64"));
  add(Buffer.from(value).toString("base64").replace(/=+$/, ""));
  add(Buffer.from(value).toString("base64url"));
  if (/[\r\n]/.test(value)) {
    for (const line of value.split(/\r?\n/)) {
      const trimmed = line.trim();
      if (trimmed.length >= MIN_LINE) {
        add(trimmed);
        add(JSON.stringify(trimmed).slice(1, -1));
        add(htmlEscape(trimmed));
      }
    }
  }
  return [...out];
}

/** Also mask the base64 of `user:secret`, as Basic auth sends it. */
export function rememberCredentialPair(user: string, secret: string): void {
  rememberSecret(Buffer.from(`${user}:${secret}`).toString("base64"));
}

export function redact(text: string): string {
  const out = stripUserInfo(text);
  if (forms.size === 0) return out;
  pattern ??= buildPattern();
  return out.replace(pattern, "***");
}

function buildPattern(): RegExp {
  const sorted = [...forms].sort(([a], [b]) => b.length - a.length);
  const alternatives = sorted.map(([form, whole]) => {
    const escaped = form.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return whole ? `(?<![A-Za-z0-9_])${escaped}(?![A-Za-z0-9_])` : escaped;
  });
  return new RegExp(alternatives.join("|"), "g");
}

/**
 * A report with every string in it scrubbed, before any renderer escapes it:
 * whatever a format does to the text afterwards, the secret is gone already.
 */
export function redactDeep<T>(value: T): T {
  if (forms.size === 0) return value;
  return scrub(value) as T;
}

function scrub(value: unknown): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map(scrub);
  if (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrub(item)]));
  }
  return value;
}

function goJson(text: string): string {
  return JSON.stringify(text)
    .slice(1, -1)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

function markdownEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function htmlEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** `https://user:pass@host/x` → `https://***@host/x` */
export function stripUserInfo(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, "$1***@");
}
