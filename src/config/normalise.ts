import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as semver from "../util/semver.js";
import type * as z from "../util/zod.js";
import { ChartroomError } from "../errors/index.js";
import { isRecord } from "../util/json.js";
import { didYouMean } from "../util/nearest.js";
import { chartSchema, configSchema, registrySchema, repositorySchema, stackSchema } from "./schema.js";
import type { ChartSpec, Config, RepositoryKind, RepositorySpec, StackSpec } from "./types.js";

const RELEASE_DEFAULTS = { atomic: true, timeout: 600, maxHistory: 10, cleanupOnFail: true, createNamespace: false, waitForJobs: true };
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
    pinImages: false,
    imageFields: [],
    release: { ...RELEASE_DEFAULTS },
    ...fields,
  };
}

/** Problems found so far; all of them are reported in one error. */
type Problems = string[];

/**
 * Turn what the user wrote into the normalised config, or throw one
 * CONFIG_INVALID error listing every problem with its key path and fix.
 * Shapes are checked by the schema (config/schema.ts); the rules between
 * fields (release names, dependsOn cycles) here.
 */
export function normaliseConfig(written: unknown, file: string): Config {
  const problems: Problems = [];
  const dir = dirname(file);
  const top = parse(configSchema, written, "", problems);
  if (top === undefined) throw invalid(file, problems);
  const repositories = normaliseRepositories(top.repositories, dir, problems);
  const charts = normaliseCharts(top.charts, repositories, dir, problems, top.pinImages === true);
  const stacks = normaliseStacks(top.stacks ?? {}, dir, problems);
  const registries = normaliseRegistries(top.registries ?? {}, dir, problems);
  if (problems.length > 0) throw invalid(file, problems);
  return { file, dir, repositories, charts, stacks, registries };
}

/** Parse with a schema, turning its issues into `path: message` lines. */
function parse<S extends z.ZodMiniType>(schema: S, value: unknown, path: string, problems: Problems): z.output<S> | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) problems.push(...describe(issue, path, schema));
  return undefined;
}

function describe(issue: z.core.$ZodIssue, base: string, schema: z.ZodMiniType): string[] {
  const path = [base, ...issue.path.map(String)].filter(Boolean).join(".");
  const at = path === "" ? "" : `${path}: `;
  if (issue.code === "unrecognized_keys") {
    const allowed = allowedKeys(schema, issue.path);
    return issue.keys.map((key) => `${path === "" ? "" : `${path}.`}${key}: unknown key${didYouMean(key, allowed)}; allowed: ${allowed.join(", ")}`);
  }
  return [`${at}${issue.message}`];
}

/** The keys an object schema (at `path` inside `schema`) allows, in declaration order. */
function allowedKeys(schema: z.ZodMiniType, path: readonly PropertyKey[]): string[] {
  let node: unknown = schema;
  for (const step of path) node = shapeOf(node)?.[String(step)];
  return Object.keys(shapeOf(node) ?? {});
}

function shapeOf(node: unknown): Record<string, unknown> | undefined {
  let current = node as { def?: { shape?: Record<string, unknown>; innerType?: unknown; schema?: unknown; in?: unknown } } | undefined;
  // Look through optional, refine and pipe wrappers to the object underneath.
  for (let depth = 0; depth < 6 && current !== undefined; depth++) {
    if (current.def?.shape !== undefined) return current.def.shape;
    current = (current.def?.innerType ?? current.def?.schema ?? current.def?.in) as typeof current;
  }
  return undefined;
}

function invalid(file: string, problems: Problems): ChartroomError {
  const summary = problems.length === 1 ? (problems[0] ?? "") : `${problems.length} problems`;
  return new ChartroomError("CONFIG_INVALID", `invalid config: ${summary}`, {
    place: { file },
    details: problems.length === 1 ? [] : problems,
    hint: "fix the keys named above, then run the command again",
  });
}

function normaliseRepositories(value: Record<string, unknown>, dir: string, problems: Problems): Map<string, RepositorySpec> {
  const out = new Map<string, RepositorySpec>();
  for (const [name, raw] of Object.entries(value)) {
    const written = parse(repositorySchema, typeof raw === "string" ? { url: raw } : raw, `repositories.${name}`, problems);
    if (written === undefined) continue;
    const kind = repositoryKind(written.url);
    const spec: RepositorySpec = { name, kind, url: written.url, plainHttp: written.plainHttp === true, timeoutMs: written.timeoutMs ?? DEFAULT_TIMEOUT_MS };
    if (kind === "file") spec.path = filePath(written.url, dir);
    if (written.caFile !== undefined) spec.caFile = resolve(dir, written.caFile);
    if (written.verify !== undefined) spec.verify = { keyring: resolve(dir, written.verify.keyring) };
    if (written.auth !== undefined) spec.auth = written.auth;
    out.set(name, spec);
  }
  return out;
}

function repositoryKind(url: string): RepositoryKind {
  if (url.startsWith("file://")) return "file";
  if (url.startsWith("oci://")) return "oci";
  return "http";
}

/** `file://./charts` and `file://charts` are relative to the config; `file:///abs` is absolute. */
function filePath(url: string, dir: string): string {
  if (url.startsWith("file:///")) return fileURLToPath(url);
  return resolve(dir, url.slice("file://".length));
}

/** A chart's own verify, else its repository's; `false` turns a repository's off. */
function verifyOf(written: { keyring: string } | false | undefined, repository: RepositorySpec, dir: string): Pick<ChartSpec, "verify"> {
  if (written === false) return {};
  if (written !== undefined) return { verify: { keyring: resolve(dir, written.keyring) } };
  return repository.verify === undefined ? {} : { verify: repository.verify };
}

/** Registries by host; a host is what an image reference names before its first `/`. */
function normaliseRegistries(value: Record<string, unknown>, dir: string, problems: Problems): Map<string, RepositorySpec> {
  const out = new Map<string, RepositorySpec>();
  for (const [host, raw] of Object.entries(value)) {
    const at = `registries.${JSON.stringify(host)}`;
    if (!/^[a-z0-9.-]+(:\d+)?$/i.test(host)) {
      problems.push(`${at}: "${host}" is not a registry host (like "ghcr.io" or "127.0.0.1:5000")`);
      continue;
    }
    const written = parse(registrySchema, raw ?? {}, at, problems);
    if (written === undefined) continue;
    const endpoint = written.endpoint === undefined ? undefined : new URL(written.endpoint);
    const spec: RepositorySpec = {
      name: host,
      kind: "oci",
      url: `oci://${endpoint?.host ?? host}`,
      plainHttp: written.plainHttp === true || endpoint?.protocol === "http:",
      timeoutMs: written.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      declaredAt: at,
    };
    if (written.caFile !== undefined) spec.caFile = resolve(dir, written.caFile);
    if (written.auth !== undefined) spec.auth = written.auth;
    out.set(host.toLowerCase(), spec);
  }
  return out;
}

function normaliseCharts(
  value: Record<string, unknown>,
  repositories: Map<string, RepositorySpec>,
  dir: string,
  problems: Problems,
  pinAll: boolean,
): ChartSpec[] {
  const keys = Object.keys(value).sort();
  const names = [...repositories.keys()];
  const charts: ChartSpec[] = [];
  const schema = chartSchema(names, keys);
  for (const key of keys) {
    const written = parse(schema, value[key], `charts.${key}`, problems);
    if (written?.dependsOn?.includes(key) === true) problems.push(`charts.${key}.dependsOn: a chart cannot depend on itself`);
    const repository = written === undefined ? undefined : repositories.get(written.repository);
    if (written === undefined || repository === undefined) continue;
    const at = written.version.indexOf("@");
    charts.push({
      key,
      repository,
      chart: written.chart ?? key,
      range: at === -1 ? written.version : written.version.slice(0, at),
      ...(at === -1 ? {} : { digest: written.version.slice(at + 1) }),
      namespace: written.namespace,
      releaseName: written.releaseName ?? key,
      engine: written.engine ?? "auto",
      prerelease: written.prerelease === true,
      dependsOn: [...(written.dependsOn ?? [])].sort(),
      dropHooks: written.dropHooks ?? false,
      helmRelease: written.helmRelease ?? false,
      skipCrds: written.skipCrds ?? false,
      retainCrds: written.retainCrds ?? true,
      pinImages: written.pinImages ?? pinAll,
      imageFields: (written.imageFields ?? []).map((field) => ({ kind: field.kind, path: field.path })),
      ...(written.postRenderer === undefined ? {} : { postRenderer: { command: written.postRenderer.command, args: written.postRenderer.args ?? [] } }),
      ...(written.resourcePrefix === undefined ? {} : { resourcePrefix: written.resourcePrefix }),
      release: { ...RELEASE_DEFAULTS, ...written.release },
      ...verifyOf(written.verify, repository, dir),
    });
  }
  checkReleaseNames(charts, problems);
  checkCycles(charts, problems);
  return charts;
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

function normaliseStacks(value: Record<string, unknown>, dir: string, problems: Problems): StackSpec[] {
  const stacks: StackSpec[] = [];
  for (const name of Object.keys(value).sort()) {
    const written = parse(stackSchema, isRecord(value[name]) || value[name] === undefined ? value[name] : value[name], `stacks.${name}`, problems);
    if (written === undefined) continue;
    stacks.push({
      name,
      kubeVersion: semver.coerce(written.kubeVersion)?.version ?? written.kubeVersion,
      apiVersions: [...(written.apiVersions ?? [])].sort(),
      ...(written.offline === true ? { offline: true } : {}),
      ...(written.production === true ? { production: true } : {}),
      ...(written.cluster === undefined
        ? {}
        : {
            cluster: {
              kubeconfig: resolve(dir, written.cluster.kubeconfig),
              ...(written.cluster.context === undefined ? {} : { context: written.cluster.context }),
            },
          }),
    });
  }
  return stacks;
}
