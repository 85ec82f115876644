// A key looks secret by its words (camelCase, snake_case, kebab-case, dots):
// password, pass, token, secret, credentials, dsn…, a compound ending in key
// (apiKey, tls.key, privateKey) or in string after connection; not when it
// names or points at one (secretName, secretKeyRef, existingSecret,
// passwordFile), configures the making of one (createSecretJob,
// secretFieldSelector), names a key of one (passwordKey, userKey: which key
// of an existing Secret holds it) or is Kubernetes' own (topologyKey), and
// not a bare `key`. Public charts' defaults hold such strings (admin-user,
// kubernetes.io/hostname, the prefix "prometheus"): masked, they made every
// object name and path that holds them unreadable in a review.
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
// Below a secret-looking key, a key ending in one of these names or sets up
// the secret (tlsSecret.secretName, privateKey.algorithm) and holds none of
// it; every other key there (env, keys, url, header…) may hold its material.
const NAMING = new Set([
  "name",
  "names",
  "namespace",
  "ref",
  "refs",
  "file",
  "files",
  "path",
  "paths",
  "mount",
  "type",
  "mode",
  "ttl",
  "expiry",
  "expiration",
  "policy",
  "format",
  "annotations",
  "labels",
  "enabled",
  "create",
  "prefix",
  "suffix",
  "item",
  "items",
  "job",
  "jobs",
  "selector",
  "image",
  "alg",
  "algorithm",
  "encoding",
]);
// A key whose last word names, points at or sets up a secret holds none of it: what names one, and
// the words that point elsewhere (secretEnv, tokenUrl, passwordKeys…) or configure it (secretInit, secretTemplate).
const POINTERS = new Set([...NAMING, "keys", "length", "env", "provider", "url", "header", "source", "init", "template", "templates", "backend"]);
// `<word>Key` names a key of a Secret, a label or a node (passwordKey: admin-password), not key material.
const NAMES_A_KEY = new Set(["topology", "label", "annotation", "user", "username", "password", "passwords"]);
// A cheap first look: a key holding none of these letters cannot look secret.
const HINT = /pass|pwd|tok|secret|cred|key|dsn|bearer|connection/i;

export function looksSecret(key: string): boolean {
  // Stryker disable next-line ConditionalExpression: a shortcut; every rule below needs one of HINT's letters.
  if (!HINT.test(key)) return false;
  const words = wordsOf(key);
  const last = words.at(-1) ?? "";
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a key with HINT's letters has words.
  if (words.length === 0 || POINTERS.has(last) || words[0] === "existing") return false;
  if (last === "key" && NAMES_A_KEY.has(words.at(-2) ?? "")) return false;
  if (words.some((word) => SECRET_WORDS.has(word))) return true;
  if (words.length > 1 && last === "key") return true;
  // Stryker disable next-line EqualityOperator: one word has no word before it to be "connection".
  return words.length > 1 && last === "string" && words.at(-2) === "connection";
}

/** Whether what `key` holds is secret, below a key that is (`secret`) or not. */
export function holdsSecret(key: string, secret: boolean): boolean {
  if (looksSecret(key)) return true;
  if (!secret) return false;
  const words = wordsOf(key);
  return !NAMING.has(words.at(-1) ?? "") && words[0] !== "existing";
}

/** Whether the value at a path of keys is secret: some key on the way looks secret, and none below it only names the secret. */
export function isSecretPath(path: readonly string[]): boolean {
  return path.reduce((secret, key) => holdsSecret(key, secret), false);
}

/** Every string under a secret-looking key, at any depth below it (but for what names the secret). */
export function secretStrings(value: unknown, secret = false, out: string[] = []): string[] {
  if (typeof value === "string") {
    if (secret) out.push(value);
  } else if (typeof value === "object" && value !== null) {
    // An array's entries are its items, under keys ("0", "1"…) that neither look secret nor name one.
    for (const [key, item] of Object.entries(value)) secretStrings(item, holdsSecret(key, secret), out);
  }
  return out;
}

// Stryker disable Regex: the acronym rule and the separators' repetition split no key of a chart differently (an extra empty word is dropped).
function wordsOf(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[\s_.-]+/)
    .filter(Boolean);
}
// Stryker restore Regex
