import type { ChartSpec, StackSpec } from "../config/types.js";
import { ChartroomError, InternalError } from "../errors/index.js";
import type { LockedChart } from "../lockfile/schema.js";
import type { ChartSource } from "../sources/types.js";
import { didYouMean } from "../util/nearest.js";
import type { Project } from "./project.js";

/**
 * The declared charts named (all when none are): an unknown name is an
 * error with a suggestion, never an empty selection that reports success.
 */
export function selectCharts(project: Project, names: readonly string[] = []): ChartSpec[] {
  for (const name of names) requireChart(project, name);
  return names.length === 0 ? [...project.config.charts] : project.config.charts.filter((spec) => names.includes(spec.key));
}

/** The declared chart `key`, or UNKNOWN_CHART listing the declared ones. */
export function requireChart(project: Project, key: string | undefined, verb = "use"): ChartSpec {
  const keys = project.config.charts.map((chart) => chart.key);
  const spec = project.config.charts.find((chart) => chart.key === key);
  if (spec !== undefined) return spec;
  throw new ChartroomError(
    "UNKNOWN_CHART",
    key === undefined ? `name a chart to ${verb}` : `"${key}" is not a chart declared in the config${didYouMean(key, keys)}`,
    {
      place: key === undefined ? { file: project.config.file } : { file: project.config.file, chart: key },
      hint: `declared charts: ${keys.join(", ")}`,
    },
  );
}

/** A chart's pin, or LOCK_MISSING saying to run `chartroom lock`. */
export function requirePin(project: Project, spec: ChartSpec): LockedChart {
  const pin = project.lock?.charts[spec.key];
  if (pin !== undefined) return pin;
  throw new ChartroomError("LOCK_MISSING", `${spec.key} is not in charts.lock.json`, {
    place: { chart: spec.key, file: project.lockPath },
    hint: "run `chartroom lock` first",
  });
}

/**
 * The stacks to work on: the one named (an unknown name is an error), else
 * every declared stack, else one stack without a Kubernetes version.
 */
export function stacksFor(project: Project, only?: string): (StackSpec | undefined)[] {
  const stacks = project.config.stacks;
  if (only === undefined) return stacks.length > 0 ? [...stacks] : [undefined];
  const stack = stacks.find((item) => item.name === only);
  if (stack !== undefined) return [stack];
  const names = stacks.map((item) => item.name);
  throw new ChartroomError("UNKNOWN_STACK", `"${only}" is not a stack declared in the config${didYouMean(only, names)}`, {
    place: { file: project.config.file, key: "stacks" },
    hint:
      names.length === 0
        ? "the config declares no stacks: leave out --stack, or declare stacks in chartroom.config.ts"
        : `declared stacks: ${names.join(", ")}`,
  });
}

/** Exactly one stack: the one named, the only one declared, or none when no stacks are declared. */
export function oneStack(project: Project, name?: string): StackSpec | undefined {
  if (name !== undefined) return stacksFor(project, name)[0];
  const stacks = project.config.stacks;
  if (stacks.length > 1) {
    throw new ChartroomError("USAGE", "several stacks are declared: pick one with --stack", { hint: `stacks: ${stacks.map((s) => s.name).join(", ")}` });
  }
  return stacks[0];
}

export function stackName(stack: StackSpec | undefined): string {
  return stack?.name ?? "default";
}

export function sourceOf(project: Project, spec: ChartSpec): ChartSource {
  const source = project.sources.get(spec.repository.name);
  // The config's validation ties every chart to a declared repository.
  if (source === undefined) throw new InternalError(`no source for repository ${spec.repository.name}`);
  return source;
}
