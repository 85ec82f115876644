/**
 * Every error code chartroom throws: what it means, the exit code it gives,
 * and the hint shown when the place that throws has nothing more precise to
 * say. Scripts and tests match on codes, never on message text; a code means
 * one thing.
 */
export const CATALOGUE = {
  USAGE: {
    exit: 1,
    meaning: "the command line is wrong (an unknown option, a missing argument, options that do not go together)",
    hint: "see `chartroom <command> --help`",
  },
  INVALID_ARGUMENT: {
    exit: 1,
    meaning:
      "a library function was called with an argument of the wrong type or shape (an unknown option, a string for a list), or naming something the platform does not have",
    hint: "check the call against the function's TSDoc",
  },
  CONFIG_NOT_FOUND: {
    exit: 1,
    meaning: "no chartroom.config.ts where it was looked for",
    hint: "run chartroom from the platform's folder, or pass --config <file>",
  },
  CONFIG_LOAD_FAILED: { exit: 1, meaning: "the config file could not be loaded (a syntax or import error in it)", hint: "fix the error in the config file" },
  CONFIG_INVALID: {
    exit: 1,
    meaning: "the config loaded but breaks its schema or a rule between fields",
    hint: "fix the keys named above, then run the command again",
  },
  VALUES_FILE_INVALID: {
    exit: 1,
    meaning:
      "a values file (values/<chart>/*.yaml) is not valid YAML, holds something else than a map, repeats a key, or holds a control character (Helm refuses all four)",
    hint: "fix the file at the place named",
  },
  POLICY_INVALID: {
    exit: 1,
    meaning:
      "a file of policies/ is not valid: broken YAML, not a policy file, a module that exports no rule, two rules with one id, or a rule, chart or stack that does not exist",
    hint: "fix the policy file named",
  },
  UNKNOWN_CHART: { exit: 1, meaning: "a chart key that the config does not declare", hint: "name a chart declared in chartroom.config.ts" },
  UNKNOWN_STACK: { exit: 1, meaning: "a stack name that the config does not declare", hint: "name a stack declared in chartroom.config.ts" },
  INDEX_INVALID: {
    exit: 1,
    meaning: "a repository's index.yaml is missing, malformed or points outside the repository",
    hint: "check the repository; rebuild its index with `helm repo index`",
  },
  VERSION_NOT_FOUND: {
    exit: 1,
    meaning: "no version of the chart satisfies the range (or the version asked for)",
    hint: "`chartroom outdated` lists what exists",
  },
  DIGEST_MISMATCH: {
    exit: 1,
    meaning: "an archive's bytes differ from the digest the lock, the index or the config pins",
    hint: "review what changed, then accept it with `chartroom lock <chart>`",
  },
  IMAGE_MOVED: {
    exit: 1,
    meaning: "a container image tag the lock records now names another digest (the tag was pushed again)",
    hint: "find out why; `chartroom lock --accept-moved-images` takes the new digests",
  },
  IMAGE_UNLOCKED: {
    exit: 1,
    meaning:
      "a chart deploys its images pinned (pinImages), and the lock has no digest for one of them (its registry is not declared, did not answer, or lock ran --offline)",
    hint: "`chartroom images` says why; declare the registry under registries and run `chartroom lock`",
  },
  PROVENANCE_INVALID: {
    exit: 1,
    meaning:
      "a chart's provenance (.prov) is missing, does not verify against the keyring, vouches for other bytes, or another key signed it than the one the lock records",
    hint: "do not pin it: ask the chart's publisher, or check the keyring the config names",
  },
  ARCHIVE_INVALID: { exit: 1, meaning: "a chart archive is not a readable Helm chart", hint: "check the archive the repository serves" },
  ARCHIVE_UNSAFE: {
    exit: 1,
    meaning:
      "a chart archive reaches outside itself: entries that escape its folder, links or devices, or (at deploy) a values schema whose $ref the engine's Helm would fetch",
    hint: "do not use this archive; report it to whoever publishes it",
  },
  ARCHIVE_TOO_LARGE: {
    exit: 1,
    meaning: "a chart archive is larger than chartroom accepts",
    hint: "check the archive; a Helm chart is rarely more than a few megabytes",
  },
  HTTP_AUTH: {
    exit: 1,
    meaning: "a repository refused the credentials, or the variables naming them are not set",
    hint: "export the variables the config names under the repository's auth",
  },
  HTTP_NOT_FOUND: { exit: 1, meaning: "a repository answered 404 for an index, a manifest or an archive", hint: "check the repository URL and the chart name" },
  HTTP_FAILED: {
    exit: 1,
    meaning: "a repository answered with an error, or the connection failed",
    hint: "check that the repository is reachable and try again",
  },
  HTTP_TIMEOUT: { exit: 1, meaning: "a repository did not answer in time", hint: "raise the repository's timeoutMs or try again" },
  HTTP_REDIRECT: {
    exit: 1,
    meaning: "a repository redirected to another scheme (file://, ftp://…) or from https to http",
    hint: "point the repository at its final https URL",
  },
  REGISTRY_PROTOCOL: {
    exit: 1,
    meaning:
      "an OCI registry sent chartroom elsewhere: a paging link to another origin, or a token realm that is not https (http only for a plainHttp registry)",
    hint: "chartroom talks to the registry's own origin only; check the registry, or what sits between it and you",
  },
  CLUSTER_CONFIG_INVALID: {
    exit: 1,
    meaning:
      "the kubeconfig named for a live review cannot be read or used: not YAML, no such context, no server, not https, or an exec plugin or auth-provider (which chartroom does not run)",
    hint: "pass a kubeconfig with a client certificate or a token, and name its context with --context",
  },
  CLUSTER_FAILED: {
    exit: 1,
    meaning: "the API server of a live review could not be reached (connection, TLS, timeout) or refused chartroom's identity (401)",
    hint: "check the server and CA in the kubeconfig, and that the cluster is up",
  },
  PROXY_FAILED: {
    exit: 1,
    meaning: "the proxy HTTPS_PROXY or HTTP_PROXY names cannot be reached, is not a URL, or refused the tunnel (407: it wants credentials)",
    hint: "check HTTPS_PROXY / HTTP_PROXY, or add the repository's host to NO_PROXY",
  },
  HTTP_TLS: { exit: 1, meaning: "the repository's certificate is not trusted, or the CA file cannot be read", hint: "name the repository's CA in caFile" },
  LOCK_INVALID: {
    exit: 1,
    meaning: "charts.lock.json cannot be read: not JSON, or not the lockfile's shape",
    hint: "restore it from version control, or delete it and run `chartroom lock`",
  },
  LOCK_TOO_NEW: { exit: 1, meaning: "charts.lock.json was written by a newer chartroom", hint: "upgrade chartroom (npm install chartroom@latest)" },
  LOCK_MISSING: { exit: 1, meaning: "a chart is not pinned, or its pinned archive is not where it should be", hint: "run `chartroom lock`" },
  LOCK_STALE: { exit: 1, meaning: "charts.lock.json no longer fits the declarations", hint: "run `chartroom lock` and commit charts.lock.json" },
  RANGE_NOT_MOVED: {
    exit: 1,
    meaning:
      "`upgrade --to` names a version outside the chart's range, and the range cannot be rewritten to take it (a range of another shape than an exact version, ^, ~ or x, or one not written as one string in the config)",
    hint: "write a range that takes the version in chartroom.config.ts, then run `chartroom lock <chart>`",
  },
  LOCK_BUSY: { exit: 1, meaning: "another chartroom is writing this platform's lock", hint: "wait for it to finish, then run the command again" },
  HELM_NOT_FOUND: {
    exit: 1,
    meaning: "no helm binary to run",
    hint: "install helm ≥ 3.8 (https://helm.sh/docs/intro/install/) and put it on PATH, or point HELM_BIN at it",
  },
  HELM_TOO_OLD: { exit: 1, meaning: "the helm found is older than chartroom supports", hint: "upgrade helm, or point HELM_BIN at a newer one" },
  HELM_FAILED: { exit: 1, meaning: "helm template failed for a chart", hint: "check the values passed to the chart" },
  ENGINE_UNSUPPORTED: {
    exit: 1,
    meaning: "the chart's engine cannot do what its declaration asks (helm.v3.Release takes a post-renderer without arguments)",
    hint: "change the declaration, or declare the other engine",
  },
  ENGINE_DROPS_HOOKS: {
    exit: 1,
    meaning: 'engine "chart" was declared for a chart with lifecycle hooks, which helm.v4.Chart drops',
    hint: 'use engine: "release", or set dropHooks: true',
  },
  POLICY_RULE_FAILED: {
    exit: 1,
    meaning: "a custom policy rule (policies/*.ts) threw while checking a chart",
    hint: "fix the rule: check(objects, context) returns the findings and does not throw",
  },
  VALUES_INVALID: {
    exit: 1,
    meaning: "values do not fit the chart's schema (at deploy time)",
    hint: "fix the values; `chartroom check` shows the same findings",
  },
  PROVIDER_MISSING: { exit: 1, meaning: "deployCharts was called without an explicit Kubernetes provider", hint: "pass { provider: new k8s.Provider(...) }" },
  INPUT_TOO_LARGE: {
    exit: 1,
    meaning: "a file, a YAML document or a registry's metadata is larger than chartroom reads, or expands too far (an alias bomb)",
    hint: "check the input; raise the limit the message names only if it really is this large",
  },
  FILE_UNWRITABLE: {
    exit: 1,
    meaning: "a file or folder chartroom must write cannot be written: no space left, read-only, permission denied, or a file where a folder should be",
    hint: "make the path named writable (for the cache: CHARTROOM_CACHE; for temporary files: TMPDIR)",
  },
  FILE_NOT_UTF8: {
    exit: 1,
    meaning: "a file chartroom reads as text (the config, a values or policy file, the lock) is not UTF-8",
    hint: "save the file as UTF-8",
  },
  FILE_UNREADABLE: { exit: 1, meaning: "a file chartroom needs is a folder, unreadable, or not allowed", hint: "check the path and its permissions" },
  INTERNAL: { exit: 1, meaning: "a bug in chartroom: something it assumed did not hold", hint: "please report it with the command you ran" },
} as const satisfies Record<string, { exit: 1 | 2; meaning: string; hint: string }>;

/** Stable codes: scripts and tests match on these, never on message text. */
export type ErrorCode = keyof typeof CATALOGUE;

/** The exit code an error gives. */
export function exitCodeOf(code: ErrorCode): 1 | 2 {
  return CATALOGUE[code].exit;
}
