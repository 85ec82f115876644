export { defineConfig } from "./config/define.js";
export type {
  Config,
  ChartSpec,
  Engine,
  RepositoryAuth,
  RepositorySpec,
  RepositoryUrl,
  StackSpec,
  WrittenChart,
  WrittenConfig,
  WrittenRepository,
  WrittenStack,
} from "./config/types.js";
export { loadConfig } from "./config/load.js";
export { normaliseConfig } from "./config/normalise.js";
export { ChartroomError, formatError, type ErrorCode, type Place } from "./errors.js";
export { readLock, parseLock } from "./lock/read.js";
export { writeLock, serialiseLock } from "./lock/write.js";
export { LOCKFILE_NAME, LOCKFILE_VERSION, type LockedChart, type Lockfile, type EngineChoice } from "./lock/schema.js";
export { resolveVersion, highestInRange, latestVersion } from "./lock/resolve.js";
export { findStale, staleReasons, type StaleEntry } from "./lock/stale.js";
export { outdatedRow, updateType, type OutdatedRow, type UpdateType } from "./lock/outdated.js";
export { updateLock, type LockChange } from "./lock/update.js";
export { chooseEngine } from "./deploy/engine.js";
export { createSource, sourcesFor } from "./sources/api.js";
export type { ChartSource, ChartVersion, FetchedArchive } from "./sources/types.js";
export { inspectArchive, type ChartInspection } from "./chart/inspect.js";
export { locateHelm, pinnedHelm, type HelmBinary } from "./render/helm-binary.js";
export { chartValues, type ChartValues, type PartialValues, type ValuesOf } from "./values/typed.js";
export { deferredValue, isDeferred, type DeferredValue } from "./values/deferred.js";
export { checkValues, type ValuesFinding, type ValuesContract } from "./values/check.js";
export { contractDiff, type ContractChange } from "./values/contract.js";
export { generateTypes } from "./values/types.js";
