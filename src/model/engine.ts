/** The two Pulumi engines: helm.v4.Chart and helm.v3.Release. */
export type EngineName = "chart" | "release";

/** The engine a chart gets, with the reasons in words. */
export interface EngineChoice {
  name: EngineName;
  reasons: string[];
}
