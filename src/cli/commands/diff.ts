import { diffReport } from "../../diff/report.js";
import { formatMarkdown } from "../../diff/format-markdown.js";
import { formatText } from "../../diff/format-text.js";
import type { ChartReport } from "../../diff/model.js";
import { ChartroomError } from "../../errors.js";
import { snapshotAt } from "../../vcs/git.js";
import { relative } from "node:path";
import type { Command, CliContext, ParsedArgs } from "../command.js";
import { compareSides, requirePin, targetVersion, type CompareOptions, type Side } from "../diffing.js";
import { stacksFor } from "../rendering.js";
import { extraValues } from "./render.js";
import { openSession, openSessionAt, selectCharts, type Session } from "../session.js";

export const diffCommand: Command = {
  name: "diff",
  summary: "render both sides offline and show per-object changes",
  usage: "chartroom diff [<chart>...] [--stack S] [--to <version|wanted|latest> | --base <git-ref>]",
  help: [
    "Compares the rendered Kubernetes objects of two sides, per chart and stack:",
    "  --to <v>    the pinned version against another version (an exact version,",
    "              `wanted` or `latest`), with the same values",
    "  --base <r>  the repository at a git ref (config, lock, values) against the",
    "              working tree: the pull-request review (default: --base HEAD)",
    "",
    "      --stack <name>       one stack only",
    "  -f, --values <file>      with --to and one chart: more values on both sides, as",
    "                           values given in code in the Pulumi program are (repeatable)",
    "      --show-bookkeeping   show helm.sh/chart, app.kubernetes.io/version and checksum/* changes",
    "      --show-secrets       show Secret values (hidden by default: only byte lengths)",
    "      --no-cache           render again even when the render cache has the answer",
    "",
    "Exit codes: 0 no changes, 2 changes, 1 failure. Changes that happen on every",
    "render (random passwords, generated certificates) are shown but not counted.",
  ],
  options: {
    stack: { type: "string" },
    to: { type: "string" },
    base: { type: "string" },
    values: { type: "string", short: "f", multiple: true },
    "show-bookkeeping": { type: "boolean" },
    "show-secrets": { type: "boolean" },
    "no-cache": { type: "boolean" },
  },
  async run(context, args) {
    if (args.values.to !== undefined && args.values.base !== undefined) {
      throw new ChartroomError("USAGE", "--to and --base do not go together", { hint: "compare versions with --to, or commits with --base" });
    }
    const files = (args.values.values as string[] | undefined) ?? [];
    if (files.length > 0 && (args.values.to === undefined || args.positionals.length !== 1)) {
      throw new ChartroomError("USAGE", "--values goes with --to and one chart", { hint: "name the chart the values are for: chartroom diff <chart> --to <v> -f <file>" });
    }
    const options: CompareOptions = {
      showSecrets: args.values["show-secrets"] === true,
      showBookkeeping: args.values["show-bookkeeping"] === true,
      noCache: args.values["no-cache"] === true,
      extra: await extraValues(context.cwd, files),
    };
    const session = await openSession(context, args);
    const charts = typeof args.values.to === "string" ? await versionMode(context, session, args, args.values.to, options) : await baseMode(context, session, args, String(args.values.base ?? "HEAD"), options);
    const report = diffReport(charts);
    const output = args.format === "json" ? JSON.stringify(report, null, 2) : args.format === "markdown" ? formatMarkdown(report) : formatText(report, args.paint);
    return { output, exitCode: report.changed ? 2 : 0 };
  },
};

async function versionMode(context: CliContext, session: Session, args: ParsedArgs, to: string, options: CompareOptions): Promise<ChartReport[]> {
  const reports: ChartReport[] = [];
  for (const spec of selectCharts(session.config.charts, args.positionals)) {
    const pin = requirePin(session, spec);
    const version = await targetVersion(session, spec, to);
    for (const stack of stacksFor(session, args.values.stack as string | undefined)) {
      context.progress(`rendering ${spec.key} ${pin.version} and ${version.version} for ${stack?.name ?? "default"}`);
      reports.push(await compareSides({ session, spec, target: { pin } }, { session, spec, target: { version } }, stack, options));
    }
  }
  return reports;
}

async function baseMode(context: CliContext, session: Session, args: ParsedArgs, ref: string, options: CompareOptions): Promise<ChartReport[]> {
  const snapshot = await snapshotAt(session.config.dir, ref);
  try {
    const base = await openSessionAt(context, snapshot.dir, relative(session.config.dir, session.config.file)).catch((error: unknown) => {
      if (ChartroomError.isInstance(error) && error.code === "CONFIG_NOT_FOUND") return null;
      throw error;
    });
    const keys = [...new Set([...(base?.config.charts ?? []).map((c) => c.key), ...session.config.charts.map((c) => c.key)])].sort();
    const selected = args.positionals.length > 0 ? keys.filter((key) => args.positionals.includes(key)) : keys;
    const reports: ChartReport[] = [];
    for (const key of selected) {
      const before = base === null ? null : sideOf(base, key);
      const after = sideOf(session, key);
      for (const stack of stacksFor(session, args.values.stack as string | undefined)) {
        context.progress(`rendering ${key} at ${ref} and in the working tree for ${stack?.name ?? "default"}`);
        reports.push(await compareSides(before, after, stack, options));
      }
    }
    return reports;
  } finally {
    await snapshot.remove();
  }
}

function sideOf(session: Session, key: string): Side | null {
  const spec = session.config.charts.find((chart) => chart.key === key);
  if (spec === undefined) return null;
  return { session, spec, target: { pin: requirePin(session, spec) } };
}
