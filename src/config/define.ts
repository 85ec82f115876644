import type { PolicyRule } from "../model/policy.js";
import type { RepositoryUrl, WrittenChart, WrittenConfig, WrittenRegistry, WrittenRepository, WrittenStack } from "./types.js";

/**
 * Declare a platform's repositories, charts and stacks. An identity function
 * whose only job is the types: a chart's `repository` must name a declared
 * repository and `dependsOn` must name declared charts.
 */
export function defineConfig<R extends string, C extends string>(config: {
  repositories: Record<R, WrittenRepository | RepositoryUrl>;
  charts: Record<C, WrittenChart<NoInfer<R>, NoInfer<C>>>;
  stacks?: Record<string, WrittenStack>;
  registries?: Record<string, WrittenRegistry>;
  pinImages?: boolean;
}): WrittenConfig<R, C> {
  return config;
}

/**
 * A custom policy rule, in policies/*.ts: `export default definePolicy({ id,
 * description, severity, check(objects, context) })`. An identity function
 * whose only job is the types: `check` sees one chart's rendered objects and
 * the stack around it, and returns what it finds.
 */
export function definePolicy(rule: PolicyRule): PolicyRule {
  return rule;
}
