import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { ValuesFinding } from "../values/check.js";
import { maxFileBytes, readTextFor, textFor } from "../util/fs.js";
import { parseValuesFile, valuesFileNames, valuesFileOf, type ParsedLayer } from "../values/layers.js";
import type { Project } from "./project.js";

/** One values file's text, read once per run (undefined when the file is not there). */
export function valuesText(project: Project, name: string): Promise<string | undefined> {
  let hit = project.memo.valuesTexts.get(name);
  if (hit === undefined) {
    const options = { optional: true, maxBytes: maxFileBytes(), shown: name, place: { file: name } };
    const given = project.valuesFiles;
    hit =
      given === undefined
        ? readTextFor(join(project.config.dir, name), "the values file", options)
        : Promise.resolve().then(() => {
            const bytes = given.get(name);
            return bytes === undefined ? undefined : textFor(bytes, join(project.config.dir, name), "the values file", options);
          });
    project.memo.valuesTexts.set(name, hit);
  }
  return hit;
}

/** A chart's values files for a stack as they are on disk: name and text, absent ones included. */
export function valuesFiles(project: Project, chart: string, stack: string | undefined): Promise<{ name: string; text: string | undefined }[]> {
  return Promise.all(valuesFileNames(chart, stack).map(async (name) => ({ name, text: await valuesText(project, name) })));
}

/** A chart's values files for a stack, parsed into layers once per run. */
export function valuesLayers(project: Project, chart: string, stack: string | undefined): Promise<ParsedLayer[]> {
  const key = `${chart}\u0000${stack ?? ""}`;
  let hit = project.memo.layers.get(key);
  if (hit === undefined) {
    hit = valuesFiles(project, chart, stack).then((files) => files.flatMap((file) => (file.text === undefined ? [] : parseValuesFile(file.name, file.text))));
    project.memo.layers.set(key, hit);
  }
  return hit;
}

/**
 * Values files no declared chart or stack reads: a folder for an undeclared
 * chart, `values/web/production.yaml` when the stack is `prod`. Helm never
 * sees them, so a change there would pass review and change nothing.
 */
export async function unreadValuesFiles(project: Project, severity: "error" | "warning"): Promise<ValuesFinding[]> {
  const root = join(project.config.dir, "values");
  const charts = new Set(project.config.charts.map((spec) => spec.key));
  const stacks = new Set(project.config.stacks.map((stack) => stack.name));
  const out: ValuesFinding[] = [];
  const unread = (chart: string, path: string, message: string, hint: string): ValuesFinding => ({
    chart,
    stack: "*",
    severity,
    rule: "values-file-unread",
    path,
    message,
    hint,
    position: { file: path, line: 1, column: 1 },
  });
  const folders = await readdir(root, { withFileTypes: true }).catch(() => []);
  for (const entry of folders) {
    if (!entry.isDirectory()) {
      if (/\.ya?ml$/.test(entry.name))
        out.push(
          unread(
            entry.name.replace(/\.ya?ml$/, ""),
            `values/${entry.name}`,
            "a values file must be in the chart's folder: nothing reads this one",
            `move it to values/<chart>/values.yaml`,
          ),
        );
      continue;
    }
    const files = (await readdir(join(root, entry.name), { withFileTypes: true })).filter((file) => file.isFile() && /\.ya?ml$/.test(file.name));
    for (const file of files) {
      const path = `values/${entry.name}/${file.name}`;
      // The naming rule that reads files decides what is unread.
      const reads = valuesFileOf(path);
      if (!charts.has(entry.name))
        out.push(
          unread(entry.name, path, `values/${entry.name}/ belongs to no declared chart: nothing reads it`, `declared charts: ${[...charts].join(", ")}`),
        );
      else if (reads === undefined)
        out.push(
          unread(
            entry.name,
            path,
            "chartroom reads .yaml files, not .yml: nothing reads this one",
            `rename it to values/${entry.name}/${file.name.replace(/\.yml$/, ".yaml")}`,
          ),
        );
      else if (reads.stack !== undefined && !stacks.has(reads.stack))
        out.push(
          unread(entry.name, path, `no stack is called "${reads.stack}": nothing reads this file`, `declared stacks: ${[...stacks].join(", ") || "(none)"}`),
        );
    }
  }
  return out;
}
