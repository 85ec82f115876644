import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import semver from "semver";
import { ChartroomError } from "../errors/index.js";
import { isRecord } from "../util/json.js";
import { didYouMean } from "../util/nearest.js";
import type { ChartSpec, Config, Engine, RepositoryKind, RepositorySpec, StackSpec } from "./types.js";

const CHART_KEYS = [
  "repository", "chart", "version", "namespace", "releaseName", "engine", "prerelease", "dependsOn",
  "dropHooks", "helmRelease", "skipCrds", "retainCrds", "postRenderer", "resourcePrefix", "release",
];
const RELEASE_DEFAULTS = { atomic: true, timeout: 600, maxHistory: 10, cleanupOnFail: true, createNamespace: false, waitForJobs: true };
const REPOSITORY_KEYS = ["url", "auth", "caFile", "plainHttp", "timeoutMs"];
const AUTH_KEYS = ["usernameEnv", "passwordEnv", "tokenEnv"];
const STACK_KEYS = ["kubeVersion", "apiVersions"];
const TOP_KEYS = ["repositories", "charts", "stacks"];
const ENGINES: Engine[] = ["auto", "chart", "release"];
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DEFAULT_TIMEOUT_MS = 30_000;

/** A chart spec with every default filled in, for code that builds specs directly. */
export function chartSpec(fields: Pick<ChartSpec, "key" | "repository" | "range"> & Partial<ChartSpec>): ChartSpec {
  return {
    chart: fields.key,
    namespace: "default",
    releaseName: fields.key,
    engine: "auto",
    prerelease: false,
    dependsOn: [],
    dropHooks: false,
    helmRelease: false,
    skipCrds: false,
    retainCrds: true,
    release: { ...RELEASE_DEFAULTS },
    ...fields,
  };
}

/** Problems found so far; all of them are reported in one error. */
type Problems = string[];

/**
 * Turn what the user wrote into the normalised config, or throw one
 * CONFIG_INVALID error listing every problem with its key path and fix.
 */
export function normaliseConfig(written: unknown, file: string): Config {
  const problems: Problems = [];
  const dir = dirname(file);
  if (!isRecord(written)) {
    throw invalid(file, ["the default export must be an object: export default defineConfig({ repositories, charts })"]);
  }
  checkKeys(written, TOP_KEYS, "", problems);
  const repositories = normaliseRepositories(written.repositories, dir, problems);
  const charts = normaliseCharts(written.charts, repositories, problems);
  const stacks = normaliseStacks(written.stacks, problems);
  if (problems.length > 0) throw invalid(file, problems);
  return { file, dir, repositories, charts, stacks };
}

function invalid(file: string, problems: Problems): ChartroomError {
  const summary = problems.length === 1 ? (problems[0] ?? "") : `${problems.length} problems`;
  return new ChartroomError("CONFIG_INVALID", `invalid config: ${summary}`, {
    place: { file },
    details: problems.length === 1 ? [] : problems,
    hint: "fix the keys named above, then run the command again",
  });
}

function checkKeys(value: Record<string, unknown>, allowed: string[], path: string, problems: Problems): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      problems.push(`${path}${key}: unknown key${didYouMean(key, allowed)}; allowed: ${allowed.join(", ")}`);
    }
  }
}

function normaliseRepositories(value: unknown, dir: string, problems: Problems): Map<string, RepositorySpec> {
  const out = new Map<string, RepositorySpec>();
  if (!isRecord(value)) {
    problems.push(`repositories: expected an object of name → URL, e.g. { local: "file://./charts" }`);
    return out;
  }
  for (const [name, raw] of Object.entries(value)) {
    const spec = normaliseRepository(name, raw, dir, problems);
    if (spec !== undefined) out.set(name, spec);
  }
  return out;
}

function normaliseRepository(name: string, raw: unknown, dir: string, problems: Problems): RepositorySpec | undefined {
  const path = `repositories.${name}`;
  const written = typeof raw === "string" ? { url: raw } : raw;
  if (!isRecord(written) || typeof written.url !== "string") {
    problems.push(`${path}: expected a URL string or { url, auth?, caFile?, plainHttp?, timeoutMs? }`);
    return undefined;
  }
  checkKeys(written, REPOSITORY_KEYS, `${path}.`, problems);
  const url = written.url;
  const kind = repositoryKind(url);
  if (kind === undefined) {
    problems.push(`${path}.url: "${url}" must start with file://, https://, http:// or oci://`);
    return undefined;
  }
  if (/^[a-z]+:\/\/[^/]*@/i.test(url)) {
    problems.push(`${path}.url: credentials in the URL are not allowed; name environment variables in ${path}.auth instead`);
    return undefined;
  }
  const spec: RepositorySpec = {
    name,
    kind,
    url,
    plainHttp: written.plainHttp === true,
    timeoutMs: typeof written.timeoutMs === "number" ? written.timeoutMs : DEFAULT_TIMEOUT_MS,
  };
  if (kind === "file") spec.path = filePath(url, dir);
  if (written.plainHttp !== undefined && typeof written.plainHttp !== "boolean") problems.push(`${path}.plainHttp: expected true or false`);
  if (written.timeoutMs !== undefined && !(typeof written.timeoutMs === "number" && written.timeoutMs > 0)) {
    problems.push(`${path}.timeoutMs: expected a positive number of milliseconds`);
  }
  if (written.caFile !== undefined) {
    if (typeof written.caFile === "string") spec.caFile = resolve(dir, written.caFile);
    else problems.push(`${path}.caFile: expected a path to a PEM file`);
  }
  if (written.auth !== undefined) spec.auth = normaliseAuth(written.auth, `${path}.auth`, problems);
  return spec;
}

function repositoryKind(url: string): RepositoryKind | undefined {
  if (url.startsWith("file://")) return "file";
  if (url.startsWith("https://") || url.startsWith("http://")) return "http";
  if (url.startsWith("oci://")) return "oci";
  return undefined;
}

/** `file://./charts` and `file://charts` are relative to the config; `file:///abs` is absolute. */
function filePath(url: string, dir: string): string {
  if (url.startsWith("file:///")) return fileURLToPath(url);
  return resolve(dir, url.slice("file://".length));
}

function normaliseAuth(raw: unknown, path: string, problems: Problems): RepositorySpec["auth"] {
  if (!isRecord(raw)) {
    problems.push(`${path}: expected { usernameEnv, passwordEnv } or { tokenEnv }`);
    return undefined;
  }
  checkKeys(raw, AUTH_KEYS, `${path}.`, problems);
  const auth: NonNullable<RepositorySpec["auth"]> = {};
  for (const key of AUTH_KEYS as (keyof typeof auth)[]) {
    const name = raw[key];
    if (name === undefined) continue;
    // A value that is not an identifier is most likely a pasted secret: say
    // so without echoing it.
    if (typeof name !== "string" || !ENV_NAME.test(name)) {
      problems.push(`${path}.${key}: expected the NAME of an environment variable (like HELM_PASSWORD), not a value`);
      continue;
    }
    auth[key] = name;
  }
  if ((auth.usernameEnv === undefined) !== (auth.passwordEnv === undefined)) {
    problems.push(`${path}: usernameEnv and passwordEnv go together`);
  }
  return auth;
}

function normaliseCharts(value: unknown, repositories: Map<string, RepositorySpec>, problems: Problems): ChartSpec[] {
  if (!isRecord(value)) {
    problems.push(`charts: expected an object of key → { repository, version, namespace }`);
    return [];
  }
  const keys = Object.keys(value).sort();
  const charts: ChartSpec[] = [];
  for (const key of keys) {
    const spec = normaliseChart(key, value[key], repositories, keys, problems);
    if (spec !== undefined) charts.push(spec);
  }
  checkReleaseNames(charts, problems);
  checkCycles(charts, problems);
  return charts;
}

function normaliseChart(
  key: string,
  raw: unknown,
  repositories: Map<string, RepositorySpec>,
  chartKeys: string[],
  problems: Problems,
): ChartSpec | undefined {
  const path = `charts.${key}`;
  if (!isRecord(raw)) {
    problems.push(`${path}: expected { repository, version, namespace, … }`);
    return undefined;
  }
  checkKeys(raw, CHART_KEYS, `${path}.`, problems);
  const before = problems.length;
  const repository = typeof raw.repository === "string" ? repositories.get(raw.repository) : undefined;
  if (typeof raw.repository !== "string") {
    problems.push(`${path}.repository: required; name one of: ${[...repositories.keys()].join(", ") || "(none declared)"}`);
  } else if (repository === undefined) {
    problems.push(
      `${path}.repository: unknown repository "${raw.repository}"${didYouMean(raw.repository, repositories.keys())}; declare it under repositories`,
    );
  }
  const { range, digest } = splitVersion(typeof raw.version === "string" ? raw.version.trim() : "", `${path}.version`, problems);
  const namespace = stringField(raw.namespace, `${path}.namespace`, problems, true);
  if (namespace !== undefined && !DNS_LABEL.test(namespace)) problems.push(`${path}.namespace: "${namespace}" is not a valid namespace name (lowercase letters, digits, "-")`);
  const releaseName = stringField(raw.releaseName, `${path}.releaseName`, problems, false) ?? key;
  if (!DNS_LABEL.test(releaseName) || releaseName.length > 53) {
    problems.push(`${path}.releaseName: "${releaseName}" is not a valid release name (≤ 53 lowercase letters, digits, "-"); set releaseName`);
  }
  const engine = raw.engine ?? "auto";
  if (!ENGINES.includes(engine as Engine)) problems.push(`${path}.engine: "${String(engine)}" is not one of ${ENGINES.join(", ")}`);
  if (raw.prerelease !== undefined && typeof raw.prerelease !== "boolean") problems.push(`${path}.prerelease: expected true or false`);
  const dependsOn = normaliseDependsOn(raw.dependsOn, key, chartKeys, path, problems);
  const chart = stringField(raw.chart, `${path}.chart`, problems, false) ?? key;
  const flags = Object.fromEntries(
    (["dropHooks", "helmRelease", "skipCrds", "retainCrds"] as const).map((flag) => [flag, booleanField(raw[flag], `${path}.${flag}`, problems, flag === "retainCrds")]),
  ) as Record<"dropHooks" | "helmRelease" | "skipCrds" | "retainCrds", boolean>;
  const postRenderer = postRendererField(raw.postRenderer, `${path}.postRenderer`, problems);
  const resourcePrefix = stringField(raw.resourcePrefix, `${path}.resourcePrefix`, problems, false);
  const release = releaseField(raw.release, `${path}.release`, problems);
  if (problems.length > before || repository === undefined || namespace === undefined) return undefined;
  return {
    key,
    repository,
    chart,
    range,
    ...(digest === undefined ? {} : { digest }),
    namespace,
    releaseName,
    engine: engine as Engine,
    prerelease: raw.prerelease === true,
    dependsOn,
    ...flags,
    ...(postRenderer === undefined ? {} : { postRenderer }),
    ...(resourcePrefix === undefined ? {} : { resourcePrefix }),
    release,
  };
}

function booleanField(value: unknown, path: string, problems: Problems, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") {
    problems.push(`${path}: expected true or false`);
    return fallback;
  }
  return value;
}

function postRendererField(value: unknown, path: string, problems: Problems): ChartSpec["postRenderer"] {
  if (value === undefined) return undefined;
  if (!isRecord(value) || typeof value.command !== "string" || (value.args !== undefined && !(Array.isArray(value.args) && value.args.every((a) => typeof a === "string")))) {
    problems.push(`${path}: expected { command: string, args?: string[] }`);
    return undefined;
  }
  return { command: value.command, args: (value.args as string[] | undefined) ?? [] };
}

function releaseField(value: unknown, path: string, problems: Problems): ChartSpec["release"] {
  if (value === undefined) return { ...RELEASE_DEFAULTS };
  if (!isRecord(value)) {
    problems.push(`${path}: expected { atomic?, timeout?, maxHistory?, cleanupOnFail?, createNamespace?, waitForJobs? }`);
    return { ...RELEASE_DEFAULTS };
  }
  checkKeys(value, Object.keys(RELEASE_DEFAULTS), `${path}.`, problems);
  const out: ChartSpec["release"] = { ...RELEASE_DEFAULTS };
  for (const [key, fallback] of Object.entries(RELEASE_DEFAULTS) as [keyof typeof RELEASE_DEFAULTS, boolean | number][]) {
    const given = value[key];
    if (given === undefined) continue;
    if (typeof given !== typeof fallback || (typeof given === "number" && !(given >= 0))) problems.push(`${path}.${key}: expected ${typeof fallback === "number" ? "a number ≥ 0" : "true or false"}`);
    else (out as Record<string, unknown>)[key] = given;
  }
  return out;
}

/** dependsOn must be acyclic: Pulumi could never order the deployments. */
function checkCycles(charts: ChartSpec[], problems: Problems): void {
  const byKey = new Map(charts.map((chart) => [chart.key, chart]));
  const state = new Map<string, "visiting" | "done">();
  const visit = (key: string, trail: string[]): void => {
    if (state.get(key) === "done") return;
    if (state.get(key) === "visiting") {
      const cycle = [...trail.slice(trail.indexOf(key)), key];
      problems.push(`charts.${key}.dependsOn: cycle ${cycle.join(" → ")}; remove one of these dependencies`);
      return;
    }
    state.set(key, "visiting");
    for (const next of byKey.get(key)?.dependsOn ?? []) if (byKey.has(next)) visit(next, [...trail, key]);
    state.set(key, "done");
  };
  for (const chart of charts) visit(chart.key, []);
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** `1.2.3@sha256:…` → the exact version and the digest; anything else is a range. */
function splitVersion(written: string, path: string, problems: Problems): { range: string; digest?: string } {
  if (written === "") {
    problems.push(`${path}: required; a semver range like "^1.2.0" or an exact version`);
    return { range: "" };
  }
  const at = written.indexOf("@");
  if (at === -1) {
    if (semver.validRange(written) === null) problems.push(`${path}: "${written}" is not a semver range (try "^1.2.0", "~1.2" or "1.2.3")`);
    return { range: written };
  }
  const range = written.slice(0, at);
  const digest = written.slice(at + 1);
  if (semver.valid(range) === null) problems.push(`${path}: a digest pin needs an exact version before the @ (like "1.2.3@sha256:…"), not "${range}"`);
  if (!DIGEST.test(digest)) problems.push(`${path}: "${digest}" is not a digest; expected sha256: and 64 lowercase hex digits`);
  return { range, digest };
}

function stringField(value: unknown, path: string, problems: Problems, required: boolean): string | undefined {
  if (value === undefined) {
    if (required) problems.push(`${path}: required`);
    return undefined;
  }
  if (typeof value !== "string" || value === "") {
    problems.push(`${path}: expected a non-empty string`);
    return undefined;
  }
  return value;
}

function normaliseDependsOn(value: unknown, key: string, chartKeys: string[], path: string, problems: Problems): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    problems.push(`${path}.dependsOn: expected a list of chart keys`);
    return [];
  }
  for (const name of value) {
    if (name === key) problems.push(`${path}.dependsOn: a chart cannot depend on itself`);
    else if (!chartKeys.includes(name)) problems.push(`${path}.dependsOn: unknown chart "${name}"${didYouMean(name, chartKeys)}`);
  }
  return [...value].sort();
}

function checkReleaseNames(charts: ChartSpec[], problems: Problems): void {
  const seen = new Map<string, string>();
  for (const chart of charts) {
    const id = `${chart.namespace}/${chart.releaseName}`;
    const other = seen.get(id);
    if (other !== undefined) {
      problems.push(
        `charts.${chart.key}.releaseName: release "${chart.releaseName}" in namespace "${chart.namespace}" is also charts.${other}; give one of them another releaseName`,
      );
    } else {
      seen.set(id, chart.key);
    }
  }
}

function normaliseStacks(value: unknown, problems: Problems): StackSpec[] {
  if (value === undefined) return [];
  if (!isRecord(value)) {
    problems.push(`stacks: expected an object of name → { kubeVersion, apiVersions? }`);
    return [];
  }
  const stacks: StackSpec[] = [];
  for (const name of Object.keys(value).sort()) {
    const raw = value[name];
    const path = `stacks.${name}`;
    if (!isRecord(raw)) {
      problems.push(`${path}: expected { kubeVersion, apiVersions? }`);
      continue;
    }
    checkKeys(raw, STACK_KEYS, `${path}.`, problems);
    const kubeVersion = typeof raw.kubeVersion === "string" ? semver.coerce(raw.kubeVersion)?.version : undefined;
    if (kubeVersion === undefined) problems.push(`${path}.kubeVersion: expected a Kubernetes version like "1.31.0"`);
    const apiVersions = raw.apiVersions ?? [];
    if (!Array.isArray(apiVersions) || !apiVersions.every((item) => typeof item === "string")) {
      problems.push(`${path}.apiVersions: expected a list like ["monitoring.coreos.com/v1"]`);
      continue;
    }
    if (kubeVersion !== undefined) stacks.push({ name, kubeVersion, apiVersions: [...apiVersions].sort() });
  }
  return stacks;
}
