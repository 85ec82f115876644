import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ValuesLayer } from "../render/template.js";

/**
 * A chart's values files for a stack, lowest precedence first:
 * `values/<chart>/values.yaml`, then `values/<chart>/<stack>.yaml`.
 * Missing files are simply absent layers.
 */
export async function valuesLayers(configDir: string, chart: string, stack: string | undefined): Promise<ValuesLayer[]> {
  const names = [`values/${chart}/values.yaml`, ...(stack === undefined ? [] : [`values/${chart}/${stack}.yaml`])];
  const layers: ValuesLayer[] = [];
  for (const name of names) {
    const text = await readFile(join(configDir, name), "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    if (text !== undefined) layers.push({ name, text });
  }
  return layers;
}
