/** The two Pulumi engines: helm.v4.Chart and helm.v3.Release. */
export type EngineName = "chart" | "release";

export interface EngineChoice {
  name: EngineName;
  reasons: string[];
}
