import { ENGINE_NAMES, type EngineName } from "../model/engine.js";
import * as semver from "../util/semver.js";
import * as z from "../util/zod.js";
import { didYouMean } from "../util/nearest.js";
import { helmRange } from "../util/helm-range.js";

// The one schema of what users write in chartroom.config.ts. The types users
// see (WrittenConfig, WrittenChart, …) are inferred from it; messages are
// written for people, with the key path added by the caller.

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;

const boolean = z.boolean({ error: "expected true or false" });
const text = z.string({ error: "expected a non-empty string" }).check(z.minLength(1, "expected a non-empty string"));

/** The NAME of an environment variable; a value that is not an identifier is most likely a pasted secret (never echoed). */
const envName = z.string().check(z.regex(ENV_NAME, "expected the NAME of an environment variable (like HELM_PASSWORD), not a value"));

export const authSchema = z
  .strictObject(
    {
      /** Variable holding the user name for Basic auth. */
      usernameEnv: z.optional(envName),
      /** Variable holding the password for Basic auth. */
      passwordEnv: z.optional(envName),
      /** Variable holding a bearer token (used instead of Basic when set). */
      tokenEnv: z.optional(envName),
    },
    { error: "expected { usernameEnv, passwordEnv } or { tokenEnv }" },
  )
  .check(z.refine((auth) => (auth.usernameEnv === undefined) === (auth.passwordEnv === undefined), { message: "usernameEnv and passwordEnv go together" }));

/** A repository address: a local folder, an HTTP(S) Helm repository or an OCI registry. */
export type RepositoryUrl = `file://${string}` | `https://${string}` | `http://${string}` | `oci://${string}`;

const url = z
  .string()
  .check(
    z.refine((value) => /^(file|https?|oci):\/\//.test(value), {
      error: (issue) => `"${String(issue.input)}" must start with file://, https://, http:// or oci://`,
    }),
  )
  .check(
    z.refine((value) => !/^[a-z]+:\/\/[^/]*@/i.test(value), {
      message: "credentials in the URL are not allowed; name environment variables in auth instead",
    }),
  ) as unknown as z.ZodMiniType<RepositoryUrl>;

/** Provenance checking: each archive's .prov must be signed by a key of this keyring (Helm's `--verify --keyring`). */
export const verifySchema = z.strictObject(
  {
    /** A keyring (`gpg --export > keyring.gpg`, binary or ASCII-armored), relative to the config file. */
    keyring: z.string({ error: "expected the path of a keyring file" }).check(z.minLength(1, "expected the path of a keyring file")),
  },
  { error: 'expected { keyring: "path/to/keyring.gpg" }' },
);

export const repositorySchema = z.strictObject(
  {
    url,
    /** Credentials, as the names of environment variables holding them. */
    auth: z.optional(authSchema),
    /** Path to a PEM file of extra certificate authorities, relative to the config file. */
    caFile: z.optional(z.string({ error: "expected a path to a PEM file" })),
    /**
     * Talk plain HTTP to an `oci://` registry (loopback registries only).
     * @default false
     */
    plainHttp: z.optional(boolean),
    /**
     * Per-request timeout in milliseconds.
     * @default 30000
     */
    timeoutMs: z.optional(z.number({ error: "expected a positive number of milliseconds" }).check(z.positive("expected a positive number of milliseconds"))),
    /** Check every chart's provenance file against this keyring before it is pinned. */
    verify: z.optional(verifySchema),
  },
  { error: "expected a URL string or { url, auth?, caFile?, plainHttp?, timeoutMs?, verify? }" },
);

const count = z.number({ error: "expected a number ≥ 0" }).check(z.gte(0, "expected a number ≥ 0"));

export const releaseSchema = z.strictObject(
  {
    /** Roll back on a failed upgrade. @default true */
    atomic: z.optional(boolean),
    /** Seconds to wait for the release. @default 600 */
    timeout: z.optional(count),
    /** Releases kept in history. @default 10 */
    maxHistory: z.optional(count),
    /** Delete new resources of a failed upgrade. @default true */
    cleanupOnFail: z.optional(boolean),
    /** Create the namespace if it does not exist. @default false */
    createNamespace: z.optional(boolean),
    /** Wait for Jobs to complete. @default true */
    waitForJobs: z.optional(boolean),
  },
  { error: "expected { atomic?, timeout?, maxHistory?, cleanupOnFail?, createNamespace?, waitForJobs? }" },
);

/** A custom resource's image field: its kind and the dotted path to the image string. */
export const imageFieldSchema = z.strictObject(
  {
    kind: text,
    path: z
      .string({ error: 'expected a dotted path like "spec.image"' })
      .check(z.regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, 'expected a dotted path like "spec.image"')),
  },
  { error: 'expected { kind: "Prometheus", path: "spec.image" }' },
);

/** An image registry chartroom may ask for digests: credentials (as variable names), a CA file, plain HTTP, a timeout. */
export const registrySchema = z.strictObject(
  {
    /**
     * Where to ask instead of the host itself (a mirror or pull-through cache):
     * `https://mirror.example.com`, or `http://127.0.0.1:5000` (plain HTTP).
     * A digest names the same bytes wherever they are served.
     */
    endpoint: z.optional(
      z
        .string({ error: "expected an http(s):// address" })
        .check(z.regex(/^https?:\/\/[^/@\s]+\/?$/, "expected an address like https://mirror.example.com (no path, no credentials)")),
    ),
    auth: z.optional(authSchema),
    caFile: z.optional(z.string({ error: "expected a path to a PEM file" })),
    /**
     * Talk plain HTTP (loopback registries only).
     * @default false
     */
    plainHttp: z.optional(boolean),
    /**
     * Per-request timeout in milliseconds.
     * @default 30000
     */
    timeoutMs: z.optional(z.number({ error: "expected a positive number of milliseconds" }).check(z.positive("expected a positive number of milliseconds"))),
  },
  { error: "expected {} or { endpoint?, auth?, caFile?, plainHttp?, timeoutMs? }" },
);

/** `^1.2.0`, `~1.2`, `>=1 <2`, an exact version, or `1.2.3@sha256:…`. */
const version = z
  .pipe(
    z.string({ error: 'required; a semver range like "^1.2.0" or an exact version' }),
    z.transform((value: string) => value.trim()),
  )
  .check(
    z.superRefine((value, ctx) => {
      if (value === "") return void ctx.addIssue({ code: "custom", message: 'required; a semver range like "^1.2.0" or an exact version' });
      const at = value.indexOf("@");
      if (at === -1) {
        if (helmRange(value) === undefined)
          ctx.addIssue({
            code: "custom",
            message: `"${value}" is not a version constraint (try "^1.2.0", "~1.2", ">=1.2.0, <2.0.0" or "1.2.3"; != is not supported)`,
          });
        return;
      }
      const [exact, digest] = [value.slice(0, at), value.slice(at + 1)];
      if (semver.valid(exact) === null)
        ctx.addIssue({ code: "custom", message: `a digest pin needs an exact version before the @ (like "1.2.3@sha256:…"), not "${exact}"` });
      if (!DIGEST.test(digest)) ctx.addIssue({ code: "custom", message: `"${digest}" is not a digest; expected sha256: and 64 lowercase hex digits` });
    }),
  );

/** The Pulumi engine a chart is declared for: `chart` (helm.v4.Chart), `release` (helm.v3.Release) or `auto` (chartroom picks, and says why). */
export type Engine = "auto" | EngineName;

/** A chart declaration, checked against the repositories and chart keys declared beside it. */
/** One schema for every chart of a config (built once: a platform declares hundreds). */
export function chartSchema(repositories: readonly string[], charts: readonly string[]) {
  return z.strictObject(
    {
      /** Key of an entry in `repositories`. */
      repository: z.string({ error: `required; name one of: ${repositories.join(", ") || "(none declared)"}` }).check(
        z.refine((name) => repositories.includes(name), {
          error: (issue) => `unknown repository "${String(issue.input)}"${suggest(String(issue.input), repositories)}; declare it under repositories`,
        }),
      ),
      /**
       * Chart name in the repository.
       * @default the key of this chart
       */
      chart: z.optional(text),
      /**
       * A semver range (`^1.2.0`, `~1.2`, `>=1 <2`), an exact version, or an exact
       * version pinned by digest (`1.2.3@sha256:…`: the OCI manifest digest for
       * `oci://`, the archive digest otherwise).
       */
      version,
      /** Namespace the release goes to. */
      namespace: z
        .string({ error: "required" })
        .check(z.minLength(1, "required"))
        .check(
          z.refine((value) => DNS_LABEL.test(value), {
            error: (issue) => `"${String(issue.input)}" is not a valid namespace name (lowercase letters, digits, "-")`,
          }),
        ),
      /**
       * Helm release name.
       * @default the key of this chart
       */
      releaseName: z.optional(
        text.check(
          z.refine((value) => DNS_LABEL.test(value) && value.length <= 53, {
            error: (issue) => `"${String(issue.input)}" is not a valid release name (≤ 53 lowercase letters, digits, "-"); set releaseName`,
          }),
        ),
      ),
      /**
       * Pulumi engine: `chart` (helm.v4.Chart), `release` (helm.v3.Release) or `auto`.
       * @default "auto"
       */
      engine: z.optional(
        z.enum(["auto", ...ENGINE_NAMES], { error: (issue) => `"${String(issue.input)}" is not one of ${["auto", ...ENGINE_NAMES].join(", ")}` }),
      ),
      /**
       * Let the range match prerelease versions.
       * @default false
       */
      prerelease: z.optional(boolean),
      /** Keys of charts that must be deployed before this one. */
      dependsOn: z.optional(
        z.array(z.string(), { error: "expected a list of chart keys" }).check(
          z.superRefine((names, ctx) => {
            // Depending on itself is checked where the key is known (normalise.ts).
            for (const name of names) if (!charts.includes(name)) ctx.addIssue({ code: "custom", message: `unknown chart "${name}"${suggest(name, charts)}` });
          }),
        ),
      ),
      /**
       * With `engine: "chart"`: accept that helm.v4.Chart drops the chart's hook objects.
       * @default false
       */
      dropHooks: z.optional(boolean),
      /**
       * Other tooling needs a real Helm release (helm list, helm rollback): `auto` picks helm.v3.Release.
       * @default false
       */
      helmRelease: z.optional(boolean),
      /**
       * Leave out the chart's `crds/` folder.
       * @default false
       */
      skipCrds: z.optional(boolean),
      /**
       * Under helm.v4.Chart, keep CustomResourceDefinitions when the chart is removed
       * (deleting a CRD deletes every instance in the cluster).
       * @default true
       */
      retainCrds: z.optional(boolean),
      /** A post-renderer: a command that reads the rendered manifests on stdin and prints them changed. */
      postRenderer: z.optional(
        z.object({ command: z.string(), args: z.optional(z.array(z.string())) }, { error: "expected { command: string, args?: string[] }" }),
      ),
      /** helm.v4.Chart only: prefix of its children's resource names. */
      resourcePrefix: z.optional(text),
      /** helm.v3.Release settings; each overrides chartroom's default. */
      release: z.optional(releaseSchema),
      /**
       * Check this chart's provenance against a keyring (overrides the repository's `verify`),
       * or `false` to take it unchecked from a repository that verifies.
       */
      verify: z.optional(z.union([verifySchema, z.literal(false)], { error: "expected { keyring } or false" })),
      /**
       * Deploy every image this chart runs as `repo:tag@sha256:<digest>`, the digest
       * `chartroom lock` recorded (overrides the top-level `pinImages`).
       * @default false
       */
      pinImages: z.optional(boolean),
      /** Image fields of custom resources (an operator's `spec.image`), locked and pinned like containers' images. */
      imageFields: z.optional(z.array(imageFieldSchema, { error: 'expected a list like [{ kind: "Prometheus", path: "spec.image" }]' })),
    },
    { error: "expected { repository, version, namespace, … }" },
  );
}

export const stackSchema = z.strictObject(
  {
    /** Kubernetes version the stack's cluster runs, e.g. `1.31.0`. */
    kubeVersion: z
      .string({ error: 'expected a Kubernetes version like "1.31.0"' })
      .check(z.refine((value) => semver.coerce(value) !== null, { message: 'expected a Kubernetes version like "1.31.0"' })),
    /** Extra API versions the cluster serves (`monitoring.coreos.com/v1`, …). */
    apiVersions: z.optional(z.array(z.string(), { error: 'expected a list like ["monitoring.coreos.com/v1"]' })),
    /**
     * The program deploys this stack without a cluster (a provider with
     * renderYamlToDirectory): the provider's Helm then renders helm.v4.Chart
     * charts for Kubernetes v1.20.0 with its default API versions, and so does
     * chartroom, so that its review and checks see what the engine writes.
     * @default false
     */
    offline: z.optional(boolean),
    /**
     * A production stack: an image given by tag, not digest, is a policy finding there.
     * @default false
     */
    production: z.optional(boolean),
    /**
     * The cluster `--cluster` reviews this stack against: a kubeconfig file
     * (relative to the config) and, optionally, its context. chartroom never
     * takes the ambient ~/.kube/config or $KUBECONFIG on its own.
     */
    cluster: z.optional(
      z.strictObject(
        { kubeconfig: z.string({ error: "expected a kubeconfig file's path" }), context: z.optional(z.string({ error: "expected a context name" })) },
        { error: "expected { kubeconfig, context? }" },
      ),
    ),
  },
  { error: "expected { kubeVersion, apiVersions?, offline?, production?, cluster? }" },
);

/** The top level, with each part's shape checked by the schemas above. */
export const configSchema = z.strictObject(
  {
    repositories: z.record(z.string(), z.unknown(), { error: 'expected an object of name → URL, e.g. { local: "file://./charts" }' }),
    charts: z.record(z.string(), z.unknown(), { error: "expected an object of key → { repository, version, namespace }" }),
    stacks: z.optional(z.record(z.string(), z.unknown(), { error: "expected an object of name → { kubeVersion, apiVersions? }" })),
    registries: z.optional(z.record(z.string(), z.unknown(), { error: 'expected an object of registry host → settings, e.g. { "ghcr.io": {} }' })),
    /**
     * Deploy every chart's images pinned by the digests `chartroom lock` recorded.
     * @default false
     */
    pinImages: z.optional(boolean),
  },
  { error: "the default export must be an object: export default defineConfig({ repositories, charts })" },
);

/** A repository as written: its URL and, optionally, credentials (as variable names), a CA file, plain HTTP, a timeout. */
export type WrittenRepository = z.input<typeof repositorySchema>;
/** A repository's credentials as the names of environment variables, never values. */
export type RepositoryAuth = z.output<typeof authSchema>;
/** helm.v3.Release settings a chart declares (each overrides chartroom's default). */
export type ReleaseSettings = z.output<typeof releaseSchema>;
/** A stack as written: the Kubernetes version of its cluster and extra API versions. */
export type WrittenStack = z.input<typeof stackSchema>;
/** An image registry as written: the settings chartroom uses when it asks it for image digests. */
export type WrittenRegistry = z.input<typeof registrySchema>;
type ChartFields = z.input<ReturnType<typeof chartSchema>>;

/** A chart declaration; `repository` and `dependsOn` name keys declared beside it. */
export type WrittenChart<R extends string = string, C extends string = string> = Omit<ChartFields, "repository" | "dependsOn"> & {
  /** Key of an entry in `repositories`. */
  repository: R;
  /** Keys of charts that must be deployed before this one. */
  dependsOn?: C[];
};

/** What chartroom.config.ts exports: repositories, charts and stacks, as `defineConfig` types them. */
export interface WrittenConfig<R extends string = string, C extends string = string> {
  repositories: Record<R, WrittenRepository | RepositoryUrl>;
  charts: Record<C, WrittenChart<R, C>>;
  stacks?: Record<string, WrittenStack>;
  /**
   * Image registries `chartroom lock` may ask for the digests of the images
   * charts run, by host (`docker.io`, `ghcr.io`, `127.0.0.1:5000`). chartroom
   * asks no registry the config does not name (an `oci://` repository's host
   * counts, with its settings).
   */
  registries?: Record<string, WrittenRegistry>;
  /**
   * Deploy every chart's images pinned by their locked digests.
   * @default false
   */
  pinImages?: boolean;
}

function suggest(word: string, candidates: readonly string[]): string {
  return didYouMean(word, candidates);
}
