/** The Pulumi engines, by the names a config and the lock give them: helm.v4.Chart and helm.v3.Release. */
export const ENGINE_NAMES = ["chart", "release"] as const;

/** One of ENGINE_NAMES (src/engine/records.ts says what each does). */
export type EngineName = (typeof ENGINE_NAMES)[number];

/** The engine a chart gets, with the reasons in words. */
export interface EngineChoice {
  name: EngineName;
  reasons: string[];
}

/**
 * What the chart's engine does to an object. helm.v4.Chart (each object a
 * Pulumi resource): create, update, replace, delete, `recreate` when the
 * child's URN moves (its name, or its apiVersion: a new resource is created
 * and the old one deleted), `fails` when the API server refuses the update.
 * helm.v3.Release (`helm upgrade`): create, update, delete, `fails` on an
 * immutable field, `recreate` for a rename, `skipped` for an object of the
 * chart's crds/ folder (helm upgrade never changes those). `same` when
 * nothing changes.
 */
export type EngineStep = "create" | "update" | "replace" | "delete" | "recreate" | "fails" | "skipped" | "same";
