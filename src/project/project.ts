import { join, resolve } from "node:path";
import type { ChartInspection } from "../chart/inspect.js";
import { CONFIG_NAMES, loadConfig } from "../config/load.js";
import { ENGINES } from "../engine/records.js";
import type { EngineName } from "../model/engine.js";
import { normaliseConfig } from "../config/normalise.js";
import type { Config } from "../config/types.js";
import { readLock } from "../lockfile/read.js";
import { LOCKFILE_NAME, type Lockfile } from "../lockfile/schema.js";
import type { FetchedArchive } from "../model/charts.js";
import { locateHelm, type HelmBinary } from "../render/helm-binary.js";
import type { Rendering } from "../render/render.js";
import { sourcesFor } from "../sources/api.js";
import type { ChartSource } from "../sources/types.js";
import { diskArchiveStore, type ArchiveStore } from "../store/archives.js";
import { cacheDir, checkCacheFolder } from "../util/cache-dir.js";
import { markProject } from "./arguments.js";
import type { PolicyChart } from "../policy/run.js";
import type { ParsedLayer } from "../values/layers.js";
import type { Policies } from "./policies.js";

/** Where the platform is and how to reach what it names. */
export interface ProjectOptions {
  /**
   * The platform's folder: where chartroom.config.ts, charts.lock.json and values/ are.
   * @default process.cwd()
   */
  dir?: string;
  /**
   * The config file, relative to `dir`.
   * @default the first of chartroom.config.ts, .mts, .js, .mjs in `dir`
   */
  configFile?: string;
  /**
   * The environment: credentials named in the config, `CHARTROOM_CACHE`, `HELM_BIN`.
   * @default process.env
   */
  env?: NodeJS.ProcessEnv;
  /** Told about long work, one line at a time (the CLI shows it on a terminal). */
  onProgress?: (line: string) => void;
  /**
   * The config as a program imported it (a Pulumi program passes what
   * `chartroom.config.ts` exports), instead of loading the file.
   */
  config?: unknown;
  /**
   * Every values file, by its name under the platform (`values/<chart>/<file>`),
   * when they are not read from the folder: the base of a review takes them
   * from git's objects instead of writing hundreds of files out first.
   */
  valuesFiles?: ReadonlyMap<string, Buffer>;
}

/**
 * A platform opened for one run: its config, its lock, one source per
 * repository, the archive store and helm. Everything a workflow learns in the
 * run (archives fetched and verified, charts inspected) is remembered here,
 * never in module state, so two projects in one process never mix.
 */
export interface Project {
  readonly config: Config;
  readonly lockPath: string;
  /** The lock as last read or written in this run (null when there is none). */
  lock: Lockfile | null;
  readonly sources: ReadonlyMap<string, ChartSource>;
  readonly store: ArchiveStore;
  readonly cacheRoot: string;
  readonly env: NodeJS.ProcessEnv;
  /** The values files, when given rather than read from `values/` (ProjectOptions.valuesFiles). */
  readonly valuesFiles?: ReadonlyMap<string, Buffer>;
  /**
   * Located on first use: workflows that never render never need helm.
   * Charts deployed by helm.v4.Chart render with `CHARTROOM_CHART_HELM` when
   * it is set (the Helm the Kubernetes provider embeds), others with the
   * helm the user runs (HELM_BIN, PATH, the pinned one).
   */
  helm(engine?: EngineName): Promise<HelmBinary>;
  progress(line: string): void;
  /** Per-run memos, keyed by what identifies the work. */
  readonly memo: {
    archives: Map<string, Promise<FetchedArchive>>;
    inspections: Map<string, Promise<ChartInspection>>;
    /** Work to start the first time helm runs in this run (loading what the policies need, while helm renders). */
    whenHelmRuns: (() => void)[];
    /** Each values file's text (undefined when absent), read once per run, by its name under the platform. */
    valuesTexts: Map<string, Promise<string | undefined>>;
    /** A chart's values files for a stack, parsed once per run (`chart\u0000stack`). */
    layers: Map<string, Promise<ParsedLayer[]>>;
    /** policies/, read and checked once per run. */
    policies?: Promise<Policies>;
    /** The render key of each chart's objects handed to the policies (the findings cache's key is made of them). */
    renderKeys: WeakMap<PolicyChart, string>;
    /** The last renderings made or read, by render key (project/rendering.ts): at most a few. */
    renderings: Map<string, Promise<Rendering>>;
  };
}

/** Load the config and the lock of the platform in `options.dir`. */
export async function openProject(options: ProjectOptions = {}): Promise<Project> {
  const dir = resolve(options.dir ?? process.cwd());
  // The config's transpiled code is kept in the cache folder: checked first.
  const cacheRoot = cacheDir(options.env ?? process.env);
  checkCacheFolder(cacheRoot);
  const config =
    options.config === undefined
      ? await loadConfig({ cwd: dir, file: options.configFile, cacheRoot })
      : normaliseConfig(options.config, join(dir, options.configFile ?? CONFIG_NAMES[0] ?? "chartroom.config.ts"));
  const lockPath = join(config.dir, LOCKFILE_NAME);
  return projectOf(config, await readLock(lockPath), options);
}

/** A project over a config already normalised (and its lock, read or not), for programs that build configs themselves. */
export function projectOf(config: Config, lock: Lockfile | null, options: Pick<ProjectOptions, "env" | "onProgress" | "valuesFiles"> = {}): Project {
  const env = options.env ?? process.env;
  const cacheRoot = cacheDir(env);
  checkCacheFolder(cacheRoot);
  const helms = new Map<string, Promise<HelmBinary>>();
  return markProject({
    config,
    lockPath: join(config.dir, LOCKFILE_NAME),
    lock,
    sources: sourcesFor(config.repositories.values(), { cacheRoot, env }),
    store: diskArchiveStore(cacheRoot),
    cacheRoot,
    env,
    ...(options.valuesFiles === undefined ? {} : { valuesFiles: options.valuesFiles }),
    helm(engine) {
      // The engine's own helm setting (CHARTROOM_CHART_HELM for helm.v4.Chart), when it is set.
      const setting = engine === undefined ? undefined : ENGINES[engine].ownHelmSetting;
      const own = setting === undefined || env[setting] === undefined || env[setting] === "" ? undefined : env[setting];
      const key = own ?? "";
      let found = helms.get(key);
      if (found === undefined) {
        found =
          own === undefined
            ? locateHelm({ cacheRoot, env })
            : locateHelm({ cacheRoot, env: { ...env, HELM_BIN: own } }).then((helm) => ({ ...helm, origin: setting as string }));
        helms.set(key, found);
      }
      return found;
    },
    progress: options.onProgress ?? (() => {}),
    memo: {
      archives: new Map(),
      inspections: new Map(),
      whenHelmRuns: [],
      valuesTexts: new Map(),
      layers: new Map(),
      renderKeys: new WeakMap(),
      renderings: new Map(),
    },
  });
}
