// A key looks secret by its words (camelCase, snake_case, kebab-case, dots):
// password, pass, token, secret, credentials, dsn…, a compound ending in key
// (apiKey, tls.key, privateKey) or in string after connection; not when it
// names or points at one (secretName, secretKeyRef, existingSecret,
// passwordFile) and not a bare `key`.
const SECRET_WORDS = new Set([
  "password",
  "passwords",
  "passwd",
  "passphrase",
  "pass",
  "pwd",
  "htpasswd",
  "token",
  "tokens",
  "secret",
  "secrets",
  "credential",
  "credentials",
  "creds",
  "apikey",
  "apikeys",
  "privatekey",
  "dsn",
  "bearer",
]);
const POINTERS = new Set([
  "name",
  "names",
  "ref",
  "refs",
  "namespace",
  "file",
  "files",
  "path",
  "paths",
  "enabled",
  "create",
  "annotations",
  "labels",
  "keys",
  "length",
  "policy",
  "mount",
  "env",
  "provider",
  "type",
  "mode",
  "url",
  "ttl",
  "expiry",
  "expiration",
  "header",
  "format",
  "source",
]);
// A cheap first look: a key holding none of these letters cannot look secret.
const HINT = /pass|pwd|tok|secret|cred|key|dsn|bearer|connection/i;

export function looksSecret(key: string): boolean {
  if (!HINT.test(key)) return false;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[\s_.-]+/)
    .filter(Boolean);
  const last = words.at(-1) ?? "";
  if (words.length === 0 || POINTERS.has(last) || words[0] === "existing") return false;
  if (words.some((word) => SECRET_WORDS.has(word))) return true;
  if (words.length > 1 && last === "key") return true;
  return words.length > 1 && last === "string" && words.at(-2) === "connection";
}

/** Every string under a secret-looking key, at any depth below it. */
export function secretStrings(value: unknown, secret = false, out: string[] = []): string[] {
  if (typeof value === "string") {
    if (secret) out.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) secretStrings(item, secret, out);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) secretStrings(item, secret || looksSecret(key), out);
  }
  return out;
}
