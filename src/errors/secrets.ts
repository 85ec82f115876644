// Every credential read from the environment is remembered here, so that
// any text leaving the process (errors, logs, reports) can be scrubbed of it,
// whatever path it took to get there.
const known = new Set<string>();

// Short values would mask ordinary words; a real credential is longer.
const MIN_SECRET_LENGTH = 4;

export function rememberSecret(value: string): void {
  if (value.length >= MIN_SECRET_LENGTH) known.add(value);
}

export function redact(text: string): string {
  let out = stripUserInfo(text);
  for (const secret of known) {
    if (out.includes(secret)) out = out.split(secret).join("***");
  }
  return out;
}

/** `https://user:pass@host/x` → `https://***@host/x` */
export function stripUserInfo(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, "$1***@");
}
