import * as z from "zod";
import { ChartroomError } from "../errors/index.js";
import { didYouMean } from "../util/nearest.js";

// The library's functions are called from JavaScript too, and from programs
// whose types drifted: every argument is parsed at the boundary, and a wrong
// one is an INVALID_ARGUMENT naming the function, the argument and the fix,
// never a TypeError from deep inside.

const names = z.array(z.string({ error: "expected a chart key (a string)" }), { error: "expected a list of chart keys" });
const text = z.string({ error: "expected a string" });
const flag = z.boolean({ error: "expected true or false" });
const layers = () =>
  z.array(z.strictObject({ name: text, text, values: z.record(z.string(), z.unknown()).optional() }, { error: "expected { name, text } (a values layer)" }), {
    error: "expected a list of values layers { name, text }",
  });

// Each function's schema is built the first time that function is called:
// zod's construction is costly (≈90 K instructions an .optional(), 250 K a
// refine), and a CLI run calls two of these twenty.
const SCHEMAS = {
  openProject: () =>
    z.strictObject({
      dir: text.optional(),
      configFile: text.optional(),
      env: z.record(z.string(), z.string().optional()).optional(),
      onProgress: z.custom<(line: string) => void>((value) => typeof value === "function", { error: "expected a function (line) => void" }).optional(),
      config: z.unknown().optional(),
    }),
  lock: () =>
    z.strictObject({
      charts: names.optional(),
      versions: z.instanceof(Map).optional(),
      concurrency: z.number().int().positive().optional(),
      acceptRepublished: flag.optional(),
      allowDowngrade: flag.optional(),
      offline: flag.optional(),
      acceptMovedImages: flag.optional(),
    }),
  outdated: () => z.strictObject({ charts: names.optional() }),
  images: () => z.strictObject({ charts: names.optional(), stack: text.optional() }),
  plan: () => z.strictObject({ charts: names.optional(), diff: flag.optional() }),
  render: () =>
    z.strictObject({
      chart: text,
      stack: text.optional(),
      version: text.optional(),
      values: layers().optional(),
      showSecrets: flag.optional(),
      noCache: flag.optional(),
    }),
  diff: () =>
    z.strictObject({
      charts: names.optional(),
      stack: text.optional(),
      to: text.optional(),
      base: text.optional(),
      values: layers().optional(),
      showSecrets: flag.optional(),
      showBookkeeping: flag.optional(),
      showSchemaFields: flag.optional(),
      context: z.number({ error: "expected a whole number of lines" }).int().nonnegative().optional(),
      noCache: flag.optional(),
    }),
  check: () => z.strictObject({ charts: names.optional(), stack: text.optional(), strict: flag.optional() }),
  planUpgrade: () => z.strictObject({ charts: names.optional(), stack: text.optional() }),
  explain: () => z.strictObject({ chart: text }),
  deploymentPlans: () => z.strictObject({ stack: text }),
  formatReport: () => z.strictObject({ paint: z.unknown().optional(), cwd: text.optional(), summary: flag.optional() }),
  deployCharts: () =>
    z.strictObject({
      stack: text.optional(),
      provider: z.object({}, { error: "expected a k8s.Provider" }).passthrough().optional(),
      allowAmbientKubeconfig: flag.optional(),
      values: z.record(z.string(), z.unknown(), { error: "expected { <chart key>: values }" }).optional(),
      charts: z
        .record(
          z.string(),
          z.strictObject({
            protect: flag.optional(),
            ignoreChanges: z.array(text).optional(),
            deletedWith: z.unknown().optional(),
            customTimeouts: z.unknown().optional(),
            skipAwait: flag.optional(),
          }),
          { error: "expected { <chart key>: resource options }" },
        )
        .optional(),
      createNamespaces: flag.optional(),
      existingNamespaces: z.array(text, { error: "expected a list of namespace names" }).optional(),
      name: text.optional(),
      aliasApiVersions: flag.optional(),
      dir: text.optional(),
      env: z.record(z.string(), z.string().optional()).optional(),
    }),
  types: () => z.strictObject({ check: flag.optional() }),
  chartroomPolicies: () => z.strictObject({ dir: text.optional(), stack: text.optional(), env: z.record(z.string(), z.string().optional()).optional() }),
  upgradePlan: () =>
    z.looseObject({ moves: z.array(z.looseObject({ chart: text, from: text, to: text })), notes: z.array(text), charts: z.array(z.unknown()) }),
} as const;

export type ArgumentOf = keyof typeof SCHEMAS;

const built = new Map<ArgumentOf, z.ZodType>();

function schemaOf(fn: ArgumentOf): z.ZodType {
  let schema = built.get(fn);
  if (schema === undefined) {
    schema = SCHEMAS[fn]();
    built.set(fn, schema);
  }
  return schema;
}

/** The options object of `fn`, checked; `undefined` is `{}`. */
export function checkOptions<T>(fn: ArgumentOf, value: T | undefined, argument = "options"): T {
  const given = value ?? {};
  const parsed = schemaOf(fn).safeParse(given);
  if (parsed.success) return given as T;
  const issue = parsed.error.issues[0];
  const path = [argument, ...(issue?.path ?? []).map(String)].join(".");
  const schema = schemaOf(fn) as unknown as { shape?: Record<string, unknown> };
  const allowed = Object.keys(schema.shape ?? {});
  const message =
    issue?.code === "unrecognized_keys"
      ? `unknown option ${issue.keys.map((key) => `"${key}"`).join(", ")}${didYouMean(issue.keys[0] ?? "", allowed)}`
      : issue?.code === "invalid_type" && issue.path.length === 0
        ? `expected an object of options, got ${typeName(given)}`
        : (issue?.message ?? "not valid");
  throw new ChartroomError("INVALID_ARGUMENT", `${fn}(): ${path}: ${message}`, {
    hint: allowed.length > 0 ? `${fn} takes ${argument} { ${allowed.join(", ")} }` : `see the TSDoc of ${fn}`,
  });
}

const PROJECT = Symbol.for("chartroom.project");

/** Mark an object as a project opened by openProject (a registered symbol: another copy of the package sees it too). */
export function markProject<T extends object>(project: T): T {
  Object.defineProperty(project, PROJECT, { value: true });
  return project;
}

/** The first argument of a workflow must be what openProject returned. */
export function checkProject<T>(fn: string, value: T): T {
  if (typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[PROJECT] === true) return value;
  throw new ChartroomError("INVALID_ARGUMENT", `${fn}(): the first argument must be a project from openProject(), not ${typeName(value)}`, {
    hint: `const project = await openProject({ dir }); await ${fn}(project, …)`,
  });
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "another object" : `${typeof value === "undefined" ? "undefined" : `a ${typeof value}`}`;
}
