// Every credential read from the environment is remembered here, so that
// any text leaving the process (errors, logs, reports) can be scrubbed of it,
// whatever path it took to get there.
const known = new Set<string>();

// Short values would mask ordinary words; a real credential is longer.
const MIN_SECRET_LENGTH = 4;

// One expression over every secret, longest first, rebuilt when one is added:
// redaction is one pass over the text however many secrets there are.
let pattern: RegExp | undefined;

export function rememberSecret(value: string): void {
  if (value.length < MIN_SECRET_LENGTH || known.has(value)) return;
  known.add(value);
  pattern = undefined;
}

export function redact(text: string): string {
  const out = stripUserInfo(text);
  if (known.size === 0) return out;
  pattern ??= new RegExp([...known].sort((a, b) => b.length - a.length).map((secret) => secret.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
  return out.replace(pattern, "***");
}

/** `https://user:pass@host/x` → `https://***@host/x` */
export function stripUserInfo(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, "$1***@");
}
