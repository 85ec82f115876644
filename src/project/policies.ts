import { engineOf, UNLOCKED_ENGINE } from "../engine/choice.js";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import * as z from "../util/zod.js";
import { importTypeScript, isLoaderCache, locationIn } from "../config/load.js";
import type { ChartSpec, StackSpec } from "../config/types.js";
import { ChartroomError } from "../errors/index.js";
import type { Finding } from "../model/findings.js";
import type { ValuesLayer } from "../model/values.js";
import type { KubernetesObject, PolicyRule } from "../model/policy.js";
import { BUILTIN_RULE_IDS, builtinRules, warmPolicies } from "../policy/builtin.js";
import { runPolicies, type PolicyChart } from "../policy/run.js";
import { addPolicyFile, emptySettings, type PolicySettings, type SettingPlace } from "../policy/settings.js";
import { recordStore } from "../store/records.js";
import { sha256Hex } from "../util/hash.js";
import { installedFile, runsFromBundle } from "../util/installed.js";
import { mergeInputs, observed, persistable, persistedHold, type Inputs } from "../util/observe.js";
import { sealDigest } from "../util/sealed.js";
import { sealingKey } from "../render/seal.js";
import { didYouMean } from "../util/nearest.js";
import { mapLimit } from "../util/pool.js";
import { mergeLayers } from "../values/coalesce.js";
import type { Project } from "./project.js";
import { valuesLayers } from "./values-files.js";
import type { ArchiveTarget } from "./archives.js";
import { lockedDigests } from "../lockfile/images.js";
import { renderFor } from "./rendering.js";
import { splitExtra, withFlags } from "../values/layers.js";
import { requirePin, stackName } from "./select.js";

/** The platform's policies/ folder: settings from its YAML files, custom rules from its TypeScript files. */
export interface Policies {
  settings: PolicySettings;
  custom: PolicyRule[];
  /** What loading the custom rules read (their files, what they import, the environment): the findings cache's inputs. */
  inputs: Inputs;
}

/**
 * Start what the policies need (the platform's policies/, the schemas) at
 * the start of a workflow, so it is ready when the renders are. Errors
 * surface where the policies are used.
 */
export function startPolicies(project: Project): void {
  // Only once helm runs: a run answered from the caches may not need them at all.
  project.memo.whenHelmRuns.push(() => {
    warmPolicies();
    policiesOf(project).catch(() => undefined);
  });
}

/** policies/ read once per project (absent: no settings, no custom rules), every name in it checked. */
export function policiesOf(project: Project): Promise<Policies> {
  project.memo.policies ??= readPolicies(join(project.config.dir, "policies"), project.cacheRoot).then((policies) => checkNames(project, policies));
  return project.memo.policies;
}

/**
 * A misspelt rule, chart or stack in a policy file would silence nothing and
 * set nothing while looking as if it did: refuse it, as an unknown chart is
 * refused on the command line.
 */
function checkNames(project: Project, policies: Policies): Policies {
  const rules = new Set(BUILTIN_RULE_IDS);
  for (const rule of policies.custom) {
    if (rules.has(rule.id))
      throw new ChartroomError("POLICY_INVALID", `two policy rules are called "${rule.id}"`, {
        place: { file: "policies/" },
        hint: "give the custom rule an id of its own",
      });
    rules.add(rule.id);
  }
  const charts = project.config.charts.map((spec) => spec.key);
  const stacks = project.config.stacks.map((stack) => stack.name);
  const refuse = (place: SettingPlace, what: string, name: string, known: readonly string[]) =>
    new ChartroomError("POLICY_INVALID", `${place.file} names ${what} "${name}", which does not exist${didYouMean(name, known)}`, {
      place,
      hint: `${what}s: ${[...known].sort().join(", ") || "(none)"}`,
    });
  for (const [rule, setting] of policies.settings.severities) {
    if (!rules.has(rule)) throw refuse(setting.place, "the rule", rule, [...rules]);
    for (const stack of Object.keys(setting.stacks)) if (!stacks.includes(stack)) throw refuse(setting.place, "the stack", stack, stacks);
  }
  for (const exception of policies.settings.exceptions) {
    if (!rules.has(exception.rule)) throw refuse(exception, "the rule", exception.rule, [...rules]);
    if (!charts.includes(exception.chart)) throw refuse(exception, "the chart", exception.chart, charts);
    if (exception.stack !== undefined && !stacks.includes(exception.stack)) throw refuse(exception, "the stack", exception.stack, stacks);
  }
  return policies;
}

async function readPolicies(folder: string, cacheRoot: string): Promise<Policies> {
  const settings = emptySettings();
  const custom: PolicyRule[] = [];
  const names = (await readdir(folder).catch(() => [] as string[])).sort();
  // Every file of policies/ is in the findings key; what the rules import and read as they load is observed.
  const loaded = await observed(
    join(folder, ".."),
    async () => {
      for (const name of names) {
        const file = join(folder, name);
        if (/\.ya?ml$/.test(name)) addPolicyFile(settings, `policies/${name}`, await readFile(file, "utf8"));
        else if (/\.(m?ts|m?js)$/.test(name) && !name.endsWith(".d.ts")) custom.push(await loadRule(file, `policies/${name}`, cacheRoot));
      }
    },
    isLoaderCache,
  );
  return { settings, custom, inputs: loaded.inputs };
}

async function loadRule(file: string, shown: string, cacheRoot: string): Promise<PolicyRule> {
  let rule: unknown;
  try {
    const module = (await importTypeScript(file, cacheRoot)) as { default?: unknown };
    rule = module.default;
  } catch (error) {
    const message = (error as Error).message ?? String(error);
    throw new ChartroomError("CONFIG_LOAD_FAILED", `could not load ${shown}: ${message.split("\n")[0]?.trim()}`, {
      place: { file: shown, ...locationIn(message, file) },
      hint: "fix the error in the policy file",
      cause: error,
    });
  }
  const candidate = rule as Partial<PolicyRule> | undefined;
  if (
    typeof candidate?.id !== "string" ||
    !/^[a-z0-9][a-z0-9.-]*$/.test(candidate.id) ||
    typeof candidate.check !== "function" ||
    typeof candidate.description !== "string" ||
    !["error", "warning", "info"].includes(String(candidate.severity))
  ) {
    throw new ChartroomError("POLICY_INVALID", `${shown} does not export a policy rule`, {
      place: { file: shown },
      hint: 'export default definePolicy({ id: "kebab-case", description, severity: "error" | "warning" | "info", check(objects, context) { return []; } })',
    });
  }
  const found = candidate as PolicyRule;
  // A rule that throws is the rule's mistake, named with its file, not a crash of chartroom.
  return {
    ...found,
    check(objects, context) {
      try {
        return found.check(objects, context);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new ChartroomError(
          "POLICY_RULE_FAILED",
          `the rule ${found.id} (${shown}) threw on chart ${context.chart}, stack ${context.stack}: ${message.split("\n")[0]?.trim()}`,
          { place: { file: shown, chart: context.chart }, hint: "fix the rule: check(objects, context) returns the findings and does not throw", cause: error },
        );
      }
    },
  };
}

/**
 * One stack, every chart rendered with the platform's values: what the rules
 * see. `targets` renders some charts at another version (an upgrade's side).
 */
export async function stackCharts(
  project: Project,
  stack: StackSpec | undefined,
  targets: ReadonlyMap<string, ArchiveTarget> = new Map(),
  only?: ReadonlySet<string>,
): Promise<PolicyChart[]> {
  const specs = only === undefined ? project.config.charts : project.config.charts.filter((spec) => only.has(spec.key));
  return mapLimit(specs, 8, (spec) => policyChart(project, spec, stack, targets.get(spec.key)));
}

/** One chart of a stack, rendered (at its pin, or at `target`), as the rules see it. */
export async function policyChart(
  project: Project,
  spec: ChartSpec,
  stack: StackSpec | undefined,
  target?: ArchiveTarget,
  extra: readonly ValuesLayer[] = [],
): Promise<PolicyChart> {
  // The rules read objects: a chart whose output changes between renders is rendered once for them.
  const rendering = await renderFor(project, { spec, stack, target: target ?? { pin: requirePin(project, spec) }, extra, once: true });
  // The rules over values see what helm got: the platform's files, then what was given beside them.
  const given = splitExtra(extra);
  const layers = withFlags([...(await valuesLayers(project, spec.key, stack?.name)), ...given.files], given.flags);
  const chart: PolicyChart = {
    key: spec.key,
    engine: engineOf(spec, project.lock?.charts[spec.key]) ?? UNLOCKED_ENGINE,
    dropHooks: spec.dropHooks,
    values: mergeLayers(layers.map((layer) => layer.values)),
    objects: rendering.objects,
    lockedImages: lockedDigests(project.lock?.charts[spec.key]),
  };
  if (rendering.key !== undefined) project.memo.renderKeys.set(chart, rendering.key);
  return chart;
}

/** The policy findings of one stack's charts: from the findings cache when nothing they depend on changed. */
export async function policyFindings(project: Project, stack: StackSpec | undefined, charts: readonly PolicyChart[]): Promise<Finding[]> {
  const today = todayOf(project.env);
  const key = await findingsKey(project, stack, charts, today);
  const records = recordStore(project.cacheRoot, "findings", 2, findingsRecord);
  const cached = key === undefined ? null : await records.read(key);
  // Reused while everything the rules read, loading and running, still reads the same.
  const digest = await envDigest(project);
  if (cached !== null && persistedHold(cached.inputs, project.config.dir, process.env, digest)) return cached.findings;
  const policies = await policiesOf(project);
  const objects: KubernetesObject[] = charts.flatMap((chart) => [...chart.objects]);
  const rules = [...(await builtinRules(objects)), ...policies.custom];
  const ran = await observed(
    project.config.dir,
    () =>
      runPolicies({
        stack: stackName(stack),
        kubeVersion: stack?.kubeVersion,
        production: stack?.production,
        charts,
        rules,
        settings: policies.settings,
        today,
      }),
    isLoaderCache,
  );
  const inputs = mergeInputs(policies.inputs, ran.inputs);
  // Rules that read the clock or ask for randomness are run every time.
  if (key !== undefined && !inputs.volatile) await records.write(key, { inputs: persistable(inputs, digest), findings: ran.value });
  return ran.value;
}

const findingsRecord = z.object({
  inputs: z.object({
    files: z.record(z.string(), z.string()),
    probes: z.record(z.string(), z.string()),
    env: z.record(z.string(), z.nullable(z.string())),
    volatile: z.boolean(),
  }),
  findings: z.array(z.custom<Finding>((value) => typeof value === "object" && value !== null && typeof (value as { rule?: unknown }).rule === "string")),
});

/** Environment values go into the findings record as keyed digests: a rule may read a credential. */
async function envDigest(project: Project): Promise<(value: string) => string> {
  const key = await sealingKey(project.cacheRoot);
  return (value) => sealDigest(value, key);
}

/**
 * Everything a stack's findings depend on, as a key: each chart's render
 * key, engine and dropHooks, the stack, the date exceptions expire against,
 * every file of policies/, the declared chart and stack names (policy files
 * are checked against them), and the built-in rules' own files. Undefined
 * when a chart was rendered revealed or a custom rule is not self-contained.
 */
async function findingsKey(project: Project, stack: StackSpec | undefined, charts: readonly PolicyChart[], today: string): Promise<string | undefined> {
  const keys = charts.map((chart) => project.memo.renderKeys.get(chart));
  if (keys.some((key) => key === undefined)) return undefined;
  const folder = join(project.config.dir, "policies");
  const files: [string, string][] = [];
  for (const name of (await readdir(folder).catch(() => [] as string[])).sort()) {
    const text = await readFile(join(folder, name), "utf8").catch(() => "");
    files.push([name, text]);
  }
  return sha256Hex(
    JSON.stringify({
      stack: stackName(stack),
      kubeVersion: stack?.kubeVersion ?? null,
      production: stack?.production === true,
      today,
      charts: charts.map((chart, i) => [chart.key, chart.engine, chart.dropHooks, keys[i], [...(chart.lockedImages ?? [])].sort()]),
      declared: [project.config.charts.map((spec) => spec.key), project.config.stacks.map((item) => item.name)],
      files,
      rules: rulesFingerprint(),
    }),
  );
}

let fingerprint: string | undefined;

/**
 * The built-in rules' code and data: a chartroom upgrade or a rebuild misses
 * the cache. From the CLI bundle, its manifest (the digest of each bundle
 * file) and the data files the rules read (dist/policy/data/) stand for the
 * rules' code; from modules, the size and time of each file of the rules'
 * folder. Read synchronously: thirty-three stats at once took ≈10 ms of a
 * cold operator diff's profile; the bundle's way is one read, one folder
 * listing and one stat.
 */
function rulesFingerprint(): string {
  if (fingerprint !== undefined) return fingerprint;
  const bundle = bundleManifest();
  const folder = bundle === null ? installedFile("policy") : installedFile("policy", "data");
  const names = readdirSync(folder, { recursive: true, encoding: "utf8" }).sort();
  const stats = names.map((name) => {
    const info = statSync(join(folder, name));
    return `${name} ${info.size} ${info.mtimeMs}`;
  });
  fingerprint = sha256Hex([bundle ?? "modules", ...stats].join("\n"));
  return fingerprint;
}

/**
 * The CLI bundle's manifest (each bundle file's sha256, scripts/build-cli.ts)
 * when this code runs from the bundle; null when it runs from modules (tsc's
 * dist/, sources through tsx), whose code no one digest names.
 */
function bundleManifest(): string | null {
  if (!runsFromBundle()) return null;
  try {
    return readFileSync(installedFile("bundle", "manifest.json"), "utf8");
  } catch {
    // A bundle without its manifest is not one cli/boot.ts runs.
    return null;
  }
}

/**
 * The date exceptions expire against: today, or `CHARTROOM_TODAY`
 * (YYYY-MM-DD) so that CI re-running an old commit reaches the same verdict.
 */
function todayOf(env: NodeJS.ProcessEnv): string {
  const given = env.CHARTROOM_TODAY;
  if (given === undefined || given === "") return new Date().toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(given) || Number.isNaN(Date.parse(given))) {
    throw new ChartroomError("USAGE", `CHARTROOM_TODAY is "${given}", not a date`, { hint: "set CHARTROOM_TODAY=YYYY-MM-DD, or unset it to use today's date" });
  }
  return given;
}

/**
 * The stack's charts rendered for the rules. A chart helm refuses to render
 * (values that break its schema, a template's `fail`) is a finding, not a
 * crash; the stack's rules then do not run, since a rule missing one chart's
 * objects would report false findings on the others.
 */
export async function stackFindings(
  project: Project,
  stack: StackSpec | undefined,
  extra?: { chart: string; values: readonly ValuesLayer[] },
): Promise<Finding[]> {
  const name = stackName(stack);
  const rendered = await mapLimit(project.config.charts, 8, (spec) =>
    policyChart(project, spec, stack, undefined, spec.key === extra?.chart ? extra.values : []).then(
      (chart) => ({ chart }),
      (error: unknown) => {
        if (ChartroomError.isInstance(error) && error.code === "HELM_FAILED") return { failed: { key: spec.key, error } };
        throw error;
      },
    ),
  );
  const failed = rendered.flatMap((item) => ("failed" in item ? [item.failed] : []));
  if (failed.length === 0)
    return policyFindings(
      project,
      stack,
      rendered.flatMap((item) => ("chart" in item ? [item.chart] : [])),
    );
  return failed.map(
    ({ key, error }): Finding => ({
      rule: "render-failed",
      severity: "error",
      chart: key,
      stack: name,
      message: `${[error.message.replace(/:$/, ""), ...helmSays(error)].join(": ")}; the policies of stack ${name} wait until every chart renders`,
      hint: `fix what helm names (\`chartroom render ${key} --stack ${name}\` shows all of it)`,
    }),
  );
}

/** What helm said, in a few lines: enough to see why; `chartroom render` shows it all. */
function helmSays(error: ChartroomError): string[] {
  const said = error.details.filter((line) => line.startsWith("helm: ")).map((line) => line.slice("helm: ".length).trim());
  return said.length === 0 ? [] : [said.slice(0, 4).join(" ")];
}
