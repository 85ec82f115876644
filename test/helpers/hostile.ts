import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { packChart } from "./pack.js";
import { editFile } from "./platform.js";

/**
 * Add a chart made of `files` to a copy of the example platform: packed into
 * a file repository `hostile/` (listed with its true digest), declared as
 * `key` in the config. Returns the archive's bytes.
 */
export async function addChart(
  dir: string,
  key: string,
  files: Record<string, string | Buffer>,
  options: { version?: string; namespace?: string } = {},
): Promise<Buffer> {
  const version = options.version ?? "1.0.0";
  const all = new Map(
    Object.entries({ "Chart.yaml": `apiVersion: v2\nname: ${key}\nversion: ${version}\n`, ...files }).map(([path, data]) => [path, Buffer.from(data)]),
  );
  const data = await packChart(key, all, new Date(0));
  const repo = join(dir, "hostile");
  await mkdir(repo, { recursive: true });
  await writeFile(join(repo, `${key}-${version}.tgz`), data);
  const digest = createHash("sha256").update(data).digest("hex");
  await writeFile(
    join(repo, "index.yaml"),
    `apiVersion: v1\nentries:\n  ${key}:\n    - name: ${key}\n      version: ${version}\n      digest: ${digest}\n      urls: [${key}-${version}.tgz]\n`,
  );
  await editFile(join(dir, "chartroom.config.ts"), (text) =>
    text
      .replace('local: "file://./charts",', 'local: "file://./charts",\n    hostile: "file://./hostile",')
      .replace(
        "charts: {",
        `charts: {\n    ${JSON.stringify(key)}: { repository: "hostile", version: "${version}", namespace: "${options.namespace ?? "web"}" },`,
      ),
  );
  return data;
}

/** A ConfigMap template that prints `.Values.name`, so the chart renders something. */
export const CONFIGMAP = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  name: {{ .Values.name | quote }}\n";
