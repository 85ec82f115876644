import type { RepositorySpec } from "../config/types.js";
import { readFileFor } from "../util/fs.js";

/** The PEM file of extra certificate authorities a repository names (`caFile`). */
export function readCaFile(repository: RepositorySpec): Promise<Buffer> {
  return readFileFor(repository.caFile as string, `the CA file of repository ${repository.name}`, {
    place: { key: `repositories.${repository.name}.caFile` },
    hint: "caFile is a PEM file path relative to chartroom.config.ts",
  });
}
