import type { ValuesFinding } from "../../values/check.js";
import { checkValues } from "../../values/check.js";
import { readValuesLayers } from "../../values/layers.js";
import { SchemaCache } from "../../values/schema.js";
import { mapLimit } from "../../util/pool.js";
import type { Command, ParsedArgs } from "../command.js";
import { contractFor } from "../contracts.js";
import { requirePin } from "../diffing.js";
import { markdownTable } from "../format.js";
import { stackName, stacksFor } from "../rendering.js";
import { openSession, selectCharts } from "../session.js";

export const checkCommand: Command = {
  name: "check",
  summary: "validate every chart's values for every stack, and catch unknown keys",
  usage: "chartroom check [<chart>...] [--stack S]",
  help: [
    "Coalesces the chart's defaults with values/<chart>/values.yaml and",
    "values/<chart>/<stack>.yaml as Helm does, validates the result against the",
    "pinned version's values.schema.json (honouring its $schema draft, subcharts",
    "against their own), and reports keys the chart does not know.",
    "Exits 2 when any error is found.",
    "",
    "      --stack <name>     one stack only",
  ],
  options: { stack: { type: "string" } },
  async run(context, args) {
    const session = await openSession(context, args);
    const schemas = new SchemaCache();
    const charts = selectCharts(session.config.charts, args.positionals);
    const stacks = stacksFor(session, args.values.stack as string | undefined);
    const results = await mapLimit(charts, 8, async (spec) => {
      const contract = await contractFor(session, spec, { pin: requirePin(session, spec) });
      const found: ValuesFinding[] = [];
      for (const stack of stacks) {
        const layers = await readValuesLayers(session.config.dir, spec.key, stack?.name);
        found.push(...checkValues({ chart: spec.key, stack: stackName(stack), contract, layers, schemas }).findings);
      }
      context.progress(`checked ${spec.key}`);
      return found;
    });
    const findings = results.flat();
    const errors = findings.filter((found) => found.severity === "error").length;
    return { output: render(findings, charts.length * stacks.length, args), exitCode: errors > 0 ? 2 : 0 };
  },
};

function where(found: ValuesFinding): string {
  return found.position === undefined ? `(chart default)` : `${found.position.file}:${found.position.line}:${found.position.column}`;
}

function render(findings: ValuesFinding[], pairs: number, args: ParsedArgs): string {
  if (args.format === "json") return JSON.stringify({ findings, checked: pairs }, null, 2);
  const summary = `${findings.length} finding(s) in ${pairs} chart/stack pair(s)`;
  if (args.format === "markdown") {
    const rows = findings.map((found) => [found.chart, found.stack, found.path, found.rule, found.message, found.hint ?? "", where(found)]);
    return `${summary}\n\n${markdownTable(["chart", "stack", "key", "rule", "problem", "hint", "where"], rows)}`;
  }
  const lines = findings.map((found) => {
    const head = `${args.paint(found.severity, found.severity === "error" ? "red" : "yellow")} ${where(found)} ${found.chart} [${found.stack}] ${args.paint(found.path, "bold")}: ${found.message} (${found.rule})`;
    return found.hint === undefined ? head : `${head}\n  hint: ${found.hint}`;
  });
  return [...lines, summary].join("\n");
}
