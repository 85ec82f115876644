import * as z from "../util/zod.js";
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
  z.array(z.strictObject({ name: text, text, values: z.optional(z.record(z.string(), z.unknown())) }, { error: "expected { name, text } (a values layer)" }), {
    error: "expected a list of values layers { name, text }",
  });

// Each function's schema is built the first time that function is called:
// zod's construction is costly (≈90 K instructions an .optional(), 250 K a
// refine), and a CLI run calls two of these twenty.
const SCHEMAS = {
  openProject: () =>
    z.strictObject({
      dir: z.optional(text),
      configFile: z.optional(text),
      env: z.optional(z.record(z.string(), z.optional(z.string()))),
      onProgress: z.optional(z.custom<(line: string) => void>((value) => typeof value === "function", { error: "expected a function (line) => void" })),
      config: z.optional(z.unknown()),
    }),
  lock: () =>
    z.strictObject({
      charts: z.optional(names),
      versions: z.optional(z.instanceof(Map)),
      concurrency: z.optional(z.number().check(z.int(), z.positive())),
      acceptRepublished: z.optional(flag),
      allowDowngrade: z.optional(flag),
      offline: z.optional(flag),
      acceptMovedImages: z.optional(flag),
    }),
  outdated: () => z.strictObject({ charts: z.optional(names) }),
  images: () => z.strictObject({ charts: z.optional(names), stack: z.optional(text) }),
  plan: () => z.strictObject({ charts: z.optional(names), diff: z.optional(flag) }),
  render: () =>
    z.strictObject({
      chart: text,
      stack: z.optional(text),
      version: z.optional(text),
      values: z.optional(layers()),
      showSecrets: z.optional(flag),
      noCache: z.optional(flag),
    }),
  diff: () =>
    z.strictObject({
      charts: z.optional(names),
      stack: z.optional(text),
      to: z.optional(text),
      base: z.optional(text),
      values: z.optional(layers()),
      showSecrets: z.optional(flag),
      showBookkeeping: z.optional(flag),
      showSchemaFields: z.optional(flag),
      context: z.optional(z.number({ error: "expected a whole number of lines" }).check(z.int(), z.nonnegative())),
      noCache: z.optional(flag),
    }),
  check: () => z.strictObject({ charts: z.optional(names), stack: z.optional(text), strict: z.optional(flag) }),
  planUpgrade: () => z.strictObject({ charts: z.optional(names), stack: z.optional(text) }),
  explain: () => z.strictObject({ chart: text }),
  deploymentPlans: () => z.strictObject({ stack: text }),
  formatReport: () => z.strictObject({ paint: z.optional(z.unknown()), cwd: z.optional(text), summary: z.optional(flag) }),
  deployCharts: () =>
    z.strictObject({
      stack: z.optional(text),
      provider: z.optional(z.looseObject({}, { error: "expected a k8s.Provider" })),
      allowAmbientKubeconfig: z.optional(flag),
      values: z.optional(z.record(z.string(), z.unknown(), { error: "expected { <chart key>: values }" })),
      charts: z.optional(
        z.record(
          z.string(),
          z.strictObject({
            protect: z.optional(flag),
            ignoreChanges: z.optional(z.array(text)),
            deletedWith: z.optional(z.unknown()),
            customTimeouts: z.optional(z.unknown()),
            skipAwait: z.optional(flag),
          }),
          { error: "expected { <chart key>: resource options }" },
        ),
      ),
      createNamespaces: z.optional(flag),
      existingNamespaces: z.optional(z.array(text, { error: "expected a list of namespace names" })),
      name: z.optional(text),
      aliasApiVersions: z.optional(flag),
      dir: z.optional(text),
      env: z.optional(z.record(z.string(), z.optional(z.string()))),
    }),
  types: () => z.strictObject({ check: z.optional(flag) }),
  chartroomPolicies: () => z.strictObject({ dir: z.optional(text), stack: z.optional(text), env: z.optional(z.record(z.string(), z.optional(z.string()))) }),
  upgradePlan: () =>
    z.looseObject({ moves: z.array(z.looseObject({ chart: text, from: text, to: text })), notes: z.array(text), charts: z.array(z.unknown()) }),
} as const;

export type ArgumentOf = keyof typeof SCHEMAS;

const built = new Map<ArgumentOf, z.ZodMiniType>();

function schemaOf(fn: ArgumentOf): z.ZodMiniType {
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
