import type { RepositoryUrl, WrittenChart, WrittenConfig, WrittenRepository, WrittenStack } from "./types.js";

/**
 * Declare a platform's repositories, charts and stacks. An identity function
 * whose only job is the types: a chart's `repository` must name a declared
 * repository and `dependsOn` must name declared charts.
 */
export function defineConfig<R extends string, C extends string>(config: {
  repositories: Record<R, WrittenRepository | RepositoryUrl>;
  charts: Record<C, WrittenChart<NoInfer<R>, NoInfer<C>>>;
  stacks?: Record<string, WrittenStack>;
}): WrittenConfig<R, C> {
  return config;
}
