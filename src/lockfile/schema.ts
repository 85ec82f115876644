import * as z from "../util/zod.js";

// charts.lock.json as a file: its own schema, and its own types inferred from
// it. A change to an in-memory type elsewhere must never change this file;
// what a newer minor version adds is kept, not dropped, at every depth: every
// object is loose, so what the schema accepts is the JSON as parsed
// (lockfile/read.ts returns that JSON, checked or not).

export { LOCKFILE_NAME, LOCKFILE_VERSION } from "./constants.js";

const sha256 = z.string().check(z.regex(/^sha256:[0-9a-f]+$/, "expected sha256:<hex>"));

export const lockedDependencySchema = z.looseObject({
  name: z.string(),
  version: z.string(),
  repository: z.optional(z.string()),
  alias: z.optional(z.string()),
  condition: z.optional(z.string()),
  /** Shipped inside the archive under charts/. */
  vendored: z.boolean(),
  /** The version shipped in the archive. */
  vendoredVersion: z.optional(z.string()),
});

/** One image a chart runs in one stack, as `chartroom lock` found it. */
export const lockedImageSchema = z.looseObject({
  /** The object that names it (`Deployment.apps web/webapp`). */
  object: z.string(),
  /** `containers[web]`, `initContainers[migrate]`, or a custom resource's field. */
  container: z.string(),
  /** The reference as the render writes it. */
  image: z.string(),
  /** `sha256:<hex>` of the manifest (or multi-platform index) the reference named when locked. */
  digest: z.optional(sha256),
  /** For a multi-platform index: how many platforms it lists. */
  platforms: z.optional(z.number().check(z.int(), z.nonnegative())),
  /** Why no digest is recorded (registry not declared, unreachable, `--offline`). */
  unresolved: z.optional(z.string()),
});

export const lockedChartSchema = z.looseObject({
  /** Repository URL as declared (never credentials). */
  repository: z.string(),
  chart: z.string(),
  /** The declared range this pin satisfies. */
  range: z.string(),
  /** Present (true) only when the declaration allows prereleases. */
  prerelease: z.optional(z.literal(true)),
  version: z.string(),
  appVersion: z.optional(z.string()),
  /** `sha256:<hex>` of the chart archive. */
  digest: sha256,
  /** OCI only: `sha256:<hex>` of the manifest the tag pointed at. */
  manifestDigest: z.optional(sha256),
  /** The digest pinned in the declaration (`1.2.3@sha256:…`), when there is one. */
  pinnedDigest: z.optional(sha256),
  /** The archive's address, relative to the repository when it lives there. */
  url: z.string(),
  chartApiVersion: z.enum(["v1", "v2"]),
  schema: z.nullable(z.looseObject({ digest: z.string(), dialect: z.optional(z.string()) })),
  crds: z.array(z.string()),
  dependencies: z.array(lockedDependencySchema),
  /** Hook event → template files, from the chart's templates. */
  hooks: z.record(z.string(), z.array(z.string())),
  /** Per stack: hook event → objects, as the chart renders with the platform's values. */
  renderedHooks: z.optional(z.record(z.string(), z.record(z.string(), z.array(z.string())))),
  /** Per stack: fields that differ between two renders of the same inputs. */
  unstable: z.optional(z.record(z.string(), z.array(z.string()))),
  /**
   * Per stack: a digest of the inputs those renders had (secret values left
   * out, render/recorded.ts). A review renders the pin once, not twice,
   * when its inputs digest the same.
   */
  renderInputs: z.optional(z.record(z.string(), z.looseObject({ digest: z.string().check(z.regex(/^[0-9a-f]{64}$/)), secretPaths: z.array(z.string()) }))),
  /**
   * Per stack: the API groups of the custom resources the chart renders with
   * the platform's values. A review whose CustomResourceDefinition changes
   * re-checks the charts that render its group, and no other.
   */
  customResourceGroups: z.optional(z.record(z.string(), z.array(z.string()))),
  engine: z.looseObject({ name: z.enum(["chart", "release"]), reasons: z.array(z.string()) }),
  /** Per stack: every container image the render runs, with its digest. */
  images: z.optional(z.record(z.string(), z.array(lockedImageSchema))),
  /** Who signed the archive's provenance, when the declaration asks for it to be verified. */
  signer: z.optional(z.looseObject({ fingerprint: z.string(), user: z.optional(z.string()) })),
});

export const lockfileSchema = z.looseObject({
  lockfileVersion: z.string(),
  charts: z.record(z.string(), lockedChartSchema),
});

/** One pinned chart. Every field is derived from the declaration and the archive. */
export type LockedChart = z.infer<typeof lockedChartSchema>;
/** charts.lock.json as read: its version and one pin per chart key. */
export type Lockfile = z.infer<typeof lockfileSchema>;
/** One locked image use. */
export type LockedImage = z.infer<typeof lockedImageSchema>;
