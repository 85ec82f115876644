import type { RepositorySpec } from "../config/types.js";
import { fileSource } from "./file/index.js";
import { httpSource } from "./http/index.js";
import { ociSource } from "./oci/index.js";
import type { RetryPolicy } from "./transport.js";
import type { ChartSource } from "./types.js";

export interface SourceOptions {
  cacheRoot: string;
  env?: NodeJS.ProcessEnv;
  retry?: RetryPolicy;
}

/** The one place that knows every repository kind. */
export function createSource(repository: RepositorySpec, options: SourceOptions): ChartSource {
  switch (repository.kind) {
    case "file":
      return fileSource(repository, options);
    case "http":
      return httpSource(repository, options);
    case "oci":
      return ociSource(repository, options);
  }
}

/** One source per repository for the life of a run, so each index is parsed once. */
export function sourcesFor(repositories: Iterable<RepositorySpec>, options: SourceOptions): Map<string, ChartSource> {
  const out = new Map<string, ChartSource>();
  for (const repository of repositories) out.set(repository.name, createSource(repository, options));
  return out;
}
