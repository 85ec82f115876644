import type { RepositorySpec } from "../config/types.js";
import { ChartroomError } from "../errors.js";
import { fileSource } from "./file/index.js";
import { httpSource } from "./http/index.js";
import type { RetryPolicy } from "./http/transport.js";
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
      return unsupported(repository);
  }
}

// Fails on use, not on creation, so a declared OCI repository does not stop
// commands about other charts.
function unsupported(repository: RepositorySpec): ChartSource {
  const fail = async (): Promise<never> => {
    throw new ChartroomError("CONFIG_INVALID", `oci:// repositories are not supported yet (${repository.url})`, {
      place: { key: `repositories.${repository.name}` },
      hint: "use the repository's classic https:// index for now",
    });
  };
  return { url: repository.url, listVersions: fail, fetchArchive: fail };
}

/** One source per repository for the life of a run, so each index is parsed once. */
export function sourcesFor(repositories: Iterable<RepositorySpec>, options: SourceOptions): Map<string, ChartSource> {
  const out = new Map<string, ChartSource>();
  for (const repository of repositories) out.set(repository.name, createSource(repository, options));
  return out;
}
