/**
 * JSON schemas for kubeconform, made locally from the Kubernetes OpenAPI of
 * the version the bench's stacks target (api/openapi-spec/swagger.json of
 * the k8s.io/kubernetes module kube/build.sh pins), the way
 * yannh/kubernetes-json-schema's `-standalone-strict` set is made: one file
 * per kind and version named as kubeconform looks them up, every reference
 * resolvable inside the file, int-or-string as a union, and no property an
 * object does not declare.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

type Schema = Record<string, unknown>;

/** The folder of schemas for `version` (for example v1.34.4), made once under `cacheRoot`; kubeconform's -schema-location for it. */
export async function kubeconformSchemas(version: string, cacheRoot: string): Promise<string> {
  const folder = join(cacheRoot, `kubeconform-schemas-${version}`);
  if (existsSync(join(folder, "complete"))) return `${folder}/{{ .ResourceKind }}{{ .KindSuffix }}.json`;
  const { stdout } = await run("go", ["mod", "download", "-json", `k8s.io/kubernetes@${version}`], { cwd: cacheRoot, maxBuffer: 16 << 20 });
  const dir = (JSON.parse(stdout) as { Dir: string }).Dir;
  const swagger = JSON.parse(await readFile(join(dir, "api", "openapi-spec", "swagger.json"), "utf8")) as { definitions: Record<string, Schema> };
  await mkdir(folder, { recursive: true });
  for (const [name, definition] of Object.entries(swagger.definitions)) {
    const kinds = (definition["x-kubernetes-group-version-kind"] ?? []) as { group: string; version: string; kind: string }[];
    for (const { group, version: apiVersion, kind } of kinds) {
      const suffix = group === "" ? `-${apiVersion}` : `-${group.split(".")[0]}-${apiVersion}`;
      await writeFile(join(folder, `${kind}${suffix}.json`.toLowerCase()), JSON.stringify(standalone(name, swagger.definitions)));
    }
  }
  await writeFile(join(folder, "complete"), "");
  return `${folder}/{{ .ResourceKind }}{{ .KindSuffix }}.json`;
}

/** One definition with every definition it reaches under `definitions`, so `#/definitions/…` resolves in the file. */
function standalone(name: string, all: Record<string, Schema>): Schema {
  const reached = new Map<string, Schema>();
  const visit = (value: unknown): void => {
    if (typeof value !== "object" || value === null) return;
    const ref = (value as Schema).$ref;
    if (typeof ref === "string" && ref.startsWith("#/definitions/")) {
      const target = ref.slice("#/definitions/".length);
      if (!reached.has(target) && all[target] !== undefined) {
        reached.set(target, strict(all[target]));
        visit(all[target]);
      }
    }
    for (const child of Object.values(value)) visit(child);
  };
  visit(all[name]);
  return { ...strict(all[name] ?? {}), definitions: Object.fromEntries(reached) };
}

/** int-or-string as a union, and no undeclared property on an object that declares its properties (kubectl's strictness). */
function strict(schema: Schema): Schema {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value !== "object" || value === null) return value;
    const object = value as Schema;
    if (object.format === "int-or-string") return { oneOf: [{ type: "string" }, { type: "integer" }] };
    const out: Schema = Object.fromEntries(Object.entries(object).map(([key, child]) => [key, walk(child)]));
    if (out.properties !== undefined && typeof out.properties === "object" && out.additionalProperties === undefined) out.additionalProperties = false;
    return out;
  };
  return walk(schema) as Schema;
}
