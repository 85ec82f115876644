import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { stringify } from "yaml";
import type { ValuesLayer } from "../../render/template.js";
import { parseValuesFile } from "../../values/layers.js";
import { isSecret } from "../../diff/classify.js";
import { maskSecretBody } from "../../diff/secrets.js";
import { ChartroomError } from "../../errors.js";
import { displayName, type RenderedObject } from "../../render/manifest.js";
import { didYouMean } from "../../util/nearest.js";
import type { Command } from "../command.js";
import { requirePin, targetVersion } from "../diffing.js";
import { markdownTable, textTable } from "../format.js";
import { renderFor } from "../rendering.js";
import { openSession, requireChart } from "../session.js";

export const renderCommand: Command = {
  name: "render",
  summary: "render a chart with the platform's values, offline",
  usage: "chartroom render <chart> [--stack S] [--version <v|wanted|latest>]",
  help: [
    "Runs helm template for the pinned version (or --version) with the stack's",
    "kube version, API versions and values files. Secret values are hidden.",
    "",
    "      --stack <name>     the stack (required when several are declared)",
    "      --version <v>      another version than the pin: exact, `wanted` or `latest`",
    "  -f, --values <file>    more values above the platform's, as values given in code",
    "                         in the Pulumi program are (repeatable; the last wins)",
    "      --summary          a table of the objects instead of YAML",
    "      --show-secrets     print Secret values",
    "      --no-cache         render again even when cached",
  ],
  options: { stack: { type: "string" }, version: { type: "string" }, values: { type: "string", short: "f", multiple: true }, summary: { type: "boolean" }, "show-secrets": { type: "boolean" }, "no-cache": { type: "boolean" } },
  async run(context, args) {
    const session = await openSession(context, args);
    const spec = requireChart(session, args.positionals[0], "render");
    const stack = pickStack(session.config.stacks, args.values.stack as string | undefined);
    const version = args.values.version as string | undefined;
    const target = version === undefined ? { pin: requirePin(session, spec) } : { version: await targetVersion(session, spec, version) };
    const extra = await extraValues(context.cwd, (args.values.values as string[] | undefined) ?? []);
    const rendering = await renderFor({ session, spec, stack, target, noCache: args.values["no-cache"] === true, extra });
    const objects = rendering.objects.map((object) => (isSecret(object) && args.values["show-secrets"] !== true ? { ...object, body: maskSecretBody(object.body) } : object));
    if (args.format === "json") return { output: JSON.stringify({ chart: spec.key, version: rendering.version, stack: stack?.name ?? null, objects }, null, 2), exitCode: 0 };
    if (args.format === "markdown" || args.values.summary === true) {
      const headers = ["OBJECT", "API VERSION", "SOURCE", "HOOK"];
      const rows = objects.map((object) => [displayName(object), object.apiVersion, object.source ?? "-", hookLabel(object)]);
      return { output: args.format === "markdown" ? markdownTable(headers, rows) : textTable(headers, rows), exitCode: 0 };
    }
    return { output: objects.map((object) => `---\n# Source: ${object.source ?? "(unknown)"}\n${stringify(object.body, { lineWidth: 0 }).trimEnd()}`).join("\n"), exitCode: 0 };
  },
};

/** Values files from the command line, read as they are: Helm parses them. */
export async function extraValues(cwd: string, files: string[]): Promise<ValuesLayer[]> {
  return Promise.all(
    files.map(async (file) => {
      const text = await readFile(resolve(cwd, file), "utf8").catch((error: NodeJS.ErrnoException) => {
        throw new ChartroomError("USAGE", `cannot read values file ${file}: ${error.code ?? error.message}`, { place: { file }, hint: "check the path given to --values" });
      });
      parseValuesFile(file, text);
      return { name: file, text };
    }),
  );
}

function pickStack<T extends { name: string }>(stacks: T[], name: string | undefined): T | undefined {
  if (name !== undefined) {
    const stack = stacks.find((item) => item.name === name);
    if (stack === undefined) throw new ChartroomError("USAGE", `unknown stack "${name}"${didYouMean(name, stacks.map((s) => s.name))}`, { hint: `stacks: ${stacks.map((s) => s.name).join(", ")}` });
    return stack;
  }
  if (stacks.length > 1) throw new ChartroomError("USAGE", "several stacks are declared: pick one with --stack", { hint: `stacks: ${stacks.map((s) => s.name).join(", ")}` });
  return stacks[0];
}

function hookLabel(object: RenderedObject): string {
  if (object.hook === undefined) return "-";
  return `${object.hook.events.join(",")}${object.hook.test ? " (test)" : ""} w=${object.hook.weight}`;
}
