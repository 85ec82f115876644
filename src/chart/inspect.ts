import { parse as parseYaml } from "yaml";
import { crdNamesIn } from "./crd-names.js";
import { ChartroomError } from "../errors/index.js";
import { sha256Digest } from "../util/hash.js";
import { coreStringsOnly, parseBlockYaml } from "../util/fast-yaml.js";
import { HELM_YAML } from "../util/helm-yaml.js";
import { isRecord, nestingDepth } from "../util/json.js";
import { readChartArchive, type ChartFiles } from "./archive.js";
import { externalRefs } from "./schema-refs.js";
import { templateReads, underKey } from "./template-reads.js";
import { templateCode } from "./template-code.js";
import type { ChartDependency, SubchartValues } from "../model/charts.js";
import { byText } from "../util/order.js";

export interface ChartInspection {
  apiVersion: "v1" | "v2";
  name: string;
  version: string;
  appVersion?: string;
  type: "application" | "library";
  kubeVersion?: string;
  /** The schema file's digest and declared dialect, or null when the chart has none. */
  schema: { digest: string; dialect?: string } | null;
  /** Parsed values.yaml (empty when absent). */
  defaults: Record<string, unknown>;
  /** CustomResourceDefinition names from crds/, the subcharts' included (Helm installs those too), sorted. */
  crds: string[];
  dependencies: ChartDependency[];
  templates: string[];
  /** Hook event → template files declaring it, found in the chart's templates (subcharts included). */
  hooks: Record<string, string[]>;
  /** The parsed values.schema.json (not stored in the lock; the digest is). */
  schemaDocument?: unknown;
  /** Vendored subcharts, keyed by the name values use for them (alias, else name). */
  subcharts: SubchartValues[];
  /**
   * False when a template (subcharts included) calls a function whose output
   * differs between renders (randAlphaNum, genCA, now…), or calls `tpl` and a
   * file of the chart (its defaults, files/) holds such a call for it to
   * evaluate: only then is a chart rendered twice to find what changes.
   */
  deterministic: boolean;
  /**
   * A template (subcharts included) calls `tpl`: strings of the values are
   * rendered as templates, so values that call such a function (in `{{ }}`)
   * make the render change from run to run too.
   */
  evaluatesValues?: boolean;
  /** A template (subcharts included) reads the clock (`now`), or may (packed subcharts too deep to read). */
  readsClock?: boolean;
  /**
   * It rounds the time since a date to the second or coarser (`ago`,
   * `durationRound`), or may: two renders differ only when a whole second
   * apart, where the rest of the clock's uses differ in the next second.
   */
  roundsClock?: boolean;
  /**
   * A values.schema.json (subcharts' included) has a `$ref` to a URL or a
   * file: Helm would fetch it while validating, so chartroom renders with
   * Helm's schema validation off and validates the values itself.
   */
  schemaReachesOut?: boolean;
  /**
   * A values.schema.json (subcharts' included) names in a `$schema` a
   * meta-schema Helm does not carry: Helm 4 would fetch it while validating
   * (Helm 3 reads the schema as draft-07), so chartroom renders with Helm 4's
   * schema validation off.
   */
  schemaNamesUnknownMeta?: boolean;
  /** A template (subcharts' included) renders a Secret: what it is given may end up in one. */
  rendersSecrets?: boolean;
  /**
   * Values paths the templates read (`a.b`; a subchart's under its key; `*`
   * when the chart hands its values on whole): keys known to the chart
   * whatever values.yaml and the schema say.
   */
  templateReads?: string[];
}

const MAX_DEPTH = 3;

export async function inspectArchive(data: Buffer, label: string): Promise<ChartInspection> {
  return inspectFiles(await readChartArchive(data, label), label, 0);
}

async function inspectFiles(chart: ChartFiles, label: string, depth: number): Promise<ChartInspection> {
  const meta = readChartYaml(chart, label);
  const schemaFile = chart.files.get("values.schema.json");
  const templates = [...chart.files.keys()].filter((path) => path.startsWith("templates/")).sort();
  // Unpacked subcharts (charts/<name>/templates/…) are scanned with the chart's own templates.
  const hookFiles = [...chart.files.keys()].filter((path) => /(^|\/)templates\//.test(path)).sort();
  const hooks = scanHooks(chart, hookFiles, "");
  const dependencies = readDependencies(chart, meta.raw, meta.apiVersion, label);
  const nested = {
    deterministic: true,
    readsClock: false,
    roundsClock: false,
    evaluatesValues: false,
    reachesOut: false,
    namesMeta: false,
    secrets: false,
    crds: [] as string[],
    reads: [] as string[],
  };
  const subcharts = depth < MAX_DEPTH ? await readSubcharts(chart, hooks, dependencies, label, depth, nested) : [];
  // Packed subcharts deeper than we look may call anything.
  if (depth >= MAX_DEPTH && [...chart.files.keys()].some((path) => /^charts\/[^/]+\.tgz$/.test(path))) {
    nested.deterministic = false;
    nested.readsClock = true;
    nested.roundsClock = true;
  }
  const texts = hookFiles.map((path) => chart.files.get(path)?.toString("utf8") ?? "");
  // What the templates call: their actions, not the prose around them.
  const code = texts.map(templateCode);
  const evaluatesValues = nested.evaluatesValues || code.some((text) => TPL.test(text));
  // What tpl may render besides the values: the chart's own other files (its defaults, files/…).
  // (Packed subcharts are inspected on their own.)
  const evaluated = evaluatesValues
    ? [...chart.files].filter(([path]) => !hookFiles.includes(path) && !/^charts\/[^/]+\.tgz$/.test(path)).map(([, file]) => file.toString("utf8"))
    : [];
  // One scan of each text for all three questions: a values file under tpl may be megabytes.
  const calls = [...code.map(callsIn), ...evaluated.map(templateCalls)];
  const schemaDocument = schemaFile === undefined ? undefined : readSchema(schemaFile, label);
  return {
    apiVersion: meta.apiVersion,
    name: meta.name,
    version: meta.version,
    appVersion: meta.appVersion,
    type: meta.raw.type === "library" ? "library" : "application",
    kubeVersion: typeof meta.raw.kubeVersion === "string" ? meta.raw.kubeVersion : undefined,
    schema: schemaFile === undefined ? null : { digest: sha256Digest(schemaFile), dialect: schemaDialect(schemaFile, label) },
    schemaDocument,
    subcharts,
    defaults: readValues(chart, label),
    crds: [...new Set([...readCrdNames(chart), ...nested.crds])].sort(),
    dependencies,
    templates,
    hooks: sortHooks(hooks),
    deterministic: nested.deterministic && !calls.some((call) => call.changes),
    readsClock: nested.readsClock || calls.some((call) => call.readsClock),
    roundsClock: nested.roundsClock || calls.some((call) => call.roundsClock),
    evaluatesValues,
    ...schemaFetches(nested, schemaDocument, chart),
    rendersSecrets: nested.secrets || texts.some((text) => SECRET_KIND.test(text)),
    templateReads: [...new Set([...ownReads(chart, hookFiles, dependencies), ...nested.reads])].sort(),
  };
}

// A template that writes a Secret (kind on a line of its own, maybe quoted).
const SECRET_KIND = /^\s*kind:\s*["']?Secret["']?\s*$/m;

// Template calls that read the clock (`ago` and `durationRound` of a time: the time since then, rounded).
const CLOCK = /\b(now|ago|durationRound)\b/;
const ROUNDED_CLOCK = /\b(ago|durationRound)\b/;

// Sprig and Helm functions whose output differs from one render to the next.
const NONDETERMINISTIC =
  /\b(rand(Alpha|AlphaNum|Numeric|Ascii|Bytes|Int)?|uuidv4|gen(CA|CAWithKey|PrivateKey|SelfSignedCert|SelfSignedCertWithKey|SignedCert|SignedCertWithKey)|now|ago|durationRound|htpasswd|bcrypt|encryptAES|shuffle)\b/;

// `tpl` renders a string (from the values, or a file of the chart) as a template.
const TPL = /\btpl\b/;

/** What the actions of a text call that makes two renders differ, as a template or as what `tpl` renders. */
export interface TemplateCalls {
  /** Something whose output differs between renders (randAlphaNum, genCA, now…). */
  changes: boolean;
  readsClock: boolean;
  /** The time since a date, rounded (`ago`). */
  roundsClock: boolean;
}

export function templateCalls(text: string): TemplateCalls {
  return callsIn(templateCode(text));
}

function callsIn(code: string): TemplateCalls {
  return { changes: NONDETERMINISTIC.test(code), readsClock: CLOCK.test(code), roundsClock: ROUNDED_CLOCK.test(code) };
}

function readChartYaml(chart: ChartFiles, label: string) {
  const file = chart.files.get("Chart.yaml");
  if (file === undefined) throw problem(label, "Chart.yaml", "the archive has no Chart.yaml");
  // Plain block YAML of strings by the fast reader, where it reads as the yaml package does: that
  // package's first reads in a process cost a cold review ≈3 ms of CPU for the charts' few Chart.yaml files.
  const fast = parseBlockYaml(file.toString("utf8"));
  const raw = isRecord(fast) && coreStringsOnly(fast) ? fast : parseFile(file, label, "Chart.yaml");
  if (!isRecord(raw)) throw problem(label, "Chart.yaml", "Chart.yaml is not a map");
  const apiVersion = raw.apiVersion === "v1" || raw.apiVersion === undefined ? "v1" : raw.apiVersion === "v2" ? "v2" : undefined;
  if (apiVersion === undefined) throw problem(label, "Chart.yaml", `unsupported apiVersion ${String(raw.apiVersion)} (v1 or v2)`);
  if (typeof raw.name !== "string" || raw.version === undefined) throw problem(label, "Chart.yaml", "name and version are required");
  const appVersion = raw.appVersion === undefined || raw.appVersion === null ? undefined : String(raw.appVersion);
  return { raw, apiVersion, name: raw.name, version: String(raw.version), appVersion } as const;
}

function parseFile(file: Buffer, label: string, path: string, options: typeof HELM_YAML = {}): unknown {
  try {
    return parseYaml(file.toString("utf8"), options);
  } catch (error) {
    throw problem(label, path, `not valid YAML: ${(error as Error).message.split("\n")[0]}`);
  }
}

function readValues(chart: ChartFiles, label: string): Record<string, unknown> {
  const file = chart.files.get("values.yaml");
  if (file === undefined) return {};
  // Helm reads a chart's defaults as it reads values files: YAML 1.1. Plain
  // block YAML by the fast reader, as values files are (values/layers.ts):
  // the full parser's first runs in a process cost a lock ≈2 ms a chart.
  const fast = parseBlockYaml(file.toString("utf8"));
  const values = isRecord(fast) ? fast : parseFile(file, label, "values.yaml", HELM_YAML);
  return isRecord(values) ? values : {};
}

/** The chart's own templates' reads, and those of subcharts vendored unpacked (charts/<name>/templates/) under their key. */
function ownReads(chart: ChartFiles, files: readonly string[], dependencies: readonly ChartDependency[]): string[] {
  const groups = new Map<string, string[]>();
  for (const path of files) {
    const sub = /^charts\/([^/]+)\/templates\//.exec(path)?.[1];
    const key = sub === undefined ? "" : (dependencies.find((dependency) => dependency.name === sub)?.alias ?? sub);
    (groups.get(key) ?? groups.set(key, []).get(key))?.push(chart.files.get(path)?.toString("utf8") ?? "");
  }
  return [...groups].flatMap(([key, texts]) => (key === "" ? templateReads(texts) : underKey(key, templateReads(texts))));
}

/**
 * What Helm would fetch validating values against the chart's schema, its
 * packed subcharts' (`nested`) and those of subcharts vendored unpacked
 * (charts/<name>/values.schema.json, which Helm validates too).
 */
function schemaFetches(
  nested: { reachesOut: boolean; namesMeta: boolean },
  schemaDocument: unknown,
  chart: ChartFiles,
): Pick<ChartInspection, "schemaReachesOut" | "schemaNamesUnknownMeta"> {
  const found = schemaDocument === undefined ? [] : externalRefs(schemaDocument);
  for (const [path, file] of chart.files) {
    if (!/^charts\/.+\/values\.schema\.json$/.test(path)) continue;
    try {
      const schema = JSON.parse(file.toString("utf8")) as unknown;
      if (nestingDepth(schema, MAX_SCHEMA_DEPTH) <= MAX_SCHEMA_DEPTH) found.push(...externalRefs(schema));
    } catch {
      // Helm reports a broken subchart schema itself.
    }
  }
  return {
    schemaReachesOut: nested.reachesOut || found.some((ref) => ref.keyword !== "$schema"),
    schemaNamesUnknownMeta: nested.namesMeta || found.some((ref) => ref.keyword === "$schema"),
  };
}

/** Real schemas nest a few dozen levels; a hostile one thousands, which no recursive walk survives. */
export const MAX_SCHEMA_DEPTH = 256;

function readSchema(file: Buffer, label: string): unknown {
  let schema: unknown;
  try {
    schema = JSON.parse(file.toString("utf8"));
  } catch (error) {
    throw problem(label, "values.schema.json", `not valid JSON: ${(error as Error).message}`);
  }
  const depth = nestingDepth(schema, MAX_SCHEMA_DEPTH);
  if (depth > MAX_SCHEMA_DEPTH)
    throw problem(label, "values.schema.json", `the schema nests more than ${MAX_SCHEMA_DEPTH} levels deep; chartroom reads schemas up to ${MAX_SCHEMA_DEPTH}`);
  return schema;
}

function schemaDialect(file: Buffer, label: string): string | undefined {
  try {
    const schema = JSON.parse(file.toString("utf8")) as unknown;
    return isRecord(schema) && typeof schema.$schema === "string" ? schema.$schema : undefined;
  } catch (error) {
    throw problem(label, "values.schema.json", `not valid JSON: ${(error as Error).message}`);
  }
}

/** Chart v2 lists dependencies in Chart.yaml; v1 in requirements.yaml. */
function readDependencies(chart: ChartFiles, raw: Record<string, unknown>, apiVersion: "v1" | "v2", label: string): ChartDependency[] {
  let list: unknown = raw.dependencies;
  if (apiVersion === "v1") {
    const requirements = chart.files.get("requirements.yaml");
    const parsed = requirements === undefined ? undefined : parseFile(requirements, label, "requirements.yaml");
    list = isRecord(parsed) ? parsed.dependencies : undefined;
  }
  if (!Array.isArray(list)) return [];
  const vendored = [...chart.files.keys()].filter((path) => path.startsWith("charts/"));
  return list.filter(isRecord).map((dep) => {
    const name = String(dep.name);
    const out: ChartDependency = {
      name,
      version: String(dep.version ?? ""),
      vendored: vendored.some((path) => path.startsWith(`charts/${name}-`) || path.startsWith(`charts/${name}/`)),
    };
    if (typeof dep.repository === "string" && dep.repository !== "") out.repository = dep.repository;
    if (typeof dep.alias === "string") out.alias = dep.alias;
    if (typeof dep.condition === "string") out.condition = dep.condition;
    return out;
  });
}

function readCrdNames(chart: ChartFiles): string[] {
  const names = new Set<string>();
  for (const [path, file] of chart.files) {
    // The chart's crds/, and those of subcharts vendored unpacked (charts/<name>/crds/).
    if (!/^(charts\/[^/]+\/)*crds\//.test(path) || !/\.(ya?ml|json)$/.test(path)) continue;
    for (const name of crdNamesIn(file.toString("utf8"))) names.add(name);
  }
  return [...names].sort();
}

// Static scan: finds hooks written literally in templates. Hooks switched on
// by values are found by rendering (the render issue records those per stack).
const HOOK_LINE = /["']?helm\.sh\/hook["']?\s*:\s*["']?([a-z0-9 ,-]+)["']?/g;

function scanHooks(chart: ChartFiles, templates: string[], prefix: string): Record<string, string[]> {
  const hooks: Record<string, string[]> = {};
  for (const path of templates) {
    const text = chart.files.get(path)?.toString("utf8") ?? "";
    for (const match of text.matchAll(HOOK_LINE)) {
      for (const event of (match[1] ?? "")
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean)) {
        hooks[event] ??= [];
        if (!hooks[event].includes(prefix + path)) hooks[event].push(prefix + path);
      }
    }
  }
  return hooks;
}

/** Vendored subchart archives: their hooks join the parent's; their defaults and schema key under alias or name. */
async function readSubcharts(
  chart: ChartFiles,
  hooks: Record<string, string[]>,
  dependencies: ChartDependency[],
  label: string,
  depth: number,
  nested: {
    deterministic: boolean;
    readsClock: boolean;
    roundsClock: boolean;
    evaluatesValues: boolean;
    reachesOut: boolean;
    namesMeta: boolean;
    secrets: boolean;
    crds: string[];
    reads: string[];
  },
): Promise<SubchartValues[]> {
  const out: SubchartValues[] = [];
  for (const [path, file] of [...chart.files].sort(([a], [b]) => byText(a, b))) {
    if (!/^charts\/[^/]+\.tgz$/.test(path)) continue;
    const sub = await readChartArchive(file, `${label} ${path}`);
    const inner = await inspectFiles(sub, `${label} ${path}`, depth + 1);
    if (!inner.deterministic) nested.deterministic = false;
    if (inner.readsClock === true) nested.readsClock = true;
    if (inner.roundsClock === true) nested.roundsClock = true;
    if (inner.evaluatesValues === true) nested.evaluatesValues = true;
    if (inner.schemaReachesOut === true) nested.reachesOut = true;
    if (inner.schemaNamesUnknownMeta === true) nested.namesMeta = true;
    if (inner.rendersSecrets === true) nested.secrets = true;
    nested.crds.push(...inner.crds);
    for (const [event, files] of Object.entries(inner.hooks)) {
      hooks[event] ??= [];
      hooks[event].push(...files.map((item) => `charts/${sub.root}/${item}`));
    }
    const declared = dependencies.find((dependency) => dependency.name === inner.name);
    nested.reads.push(...underKey(declared?.alias ?? inner.name, inner.templateReads ?? []));
    // The version in the archive, not the range Chart.yaml asks for.
    if (declared !== undefined) declared.vendoredVersion = inner.version;
    out.push({
      key: declared?.alias ?? inner.name,
      defaults: inner.defaults,
      schemaDocument: inner.schemaDocument,
      schemaDigest: inner.schema?.digest,
      subcharts: inner.subcharts,
    });
  }
  return out;
}

function sortHooks(hooks: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const event of Object.keys(hooks).sort()) out[event] = [...new Set(hooks[event])].sort();
  return out;
}

function problem(label: string, file: string, why: string): ChartroomError {
  return new ChartroomError("ARCHIVE_INVALID", `${label}: ${file}: ${why}`, {
    place: { chart: label, file },
    hint: "the chart is broken; pin another version or ask its maintainers",
  });
}
