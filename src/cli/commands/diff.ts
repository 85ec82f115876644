import type { DiffReport } from "../../diff/model.js";
import { liveStops } from "../../diff/report.js";
import { VALUES_HELP, VALUES_OPTIONS } from "./values-options.js";
import { CLUSTER_HELP, CLUSTER_OPTIONS, clusterOption, countOption, flag, stringOption, type Command } from "../command.js";

export const diffCommand: Command<DiffReport> = {
  name: "diff",
  summary: "render both sides offline and show per-object changes",
  usage: "chartroom diff [<chart>...] [--stack S] [--to <version|wanted|latest> | --base <git-ref>] [--cluster [--kubeconfig F] [--context C]]",
  help: [
    "Compares the rendered Kubernetes objects of two sides, per chart and stack:",
    "  --to <v>    the pinned version against another version (an exact version,",
    "              `wanted` or `latest`), with the same values",
    "  --base <r>  the repository at a git ref (config, lock, values) against the",
    "              working tree: the pull-request review (default: --base HEAD)",
    "",
    "      --stack <name>       one stack only",
    ...VALUES_HELP,
    "                         (with --to and one chart; on both sides)",
    "      --show-bookkeeping   show helm.sh/chart, app.kubernetes.io/version and checksum/* changes",
    "      --show-secrets       show Secret values (hidden by default: only byte lengths)",
    "      --show-schema-fields list every changed field of a CRD's schema (over 12 in one",
    "                           version, they are counted per version by default)",
    "  -C, --context-lines <n>  lines of context around each change of a long value shown",
    "                           line by line (a file in a ConfigMap, JSON kept in a string,",
    "                           a container's args; default 3, as helm-diff's -C)",
    "      --no-cache           render again even when the render cache has the answer",
    "      --cluster            also review the new side against a live cluster: a GET and",
    "                           a server-side apply with dryRun=All per object, as the",
    "                           provider's field manager (helm.v4.Chart charts); names",
    "                           conflicts with their owner and fix, immutable fields,",
    "                           kinds not served, verbs the identity lacks. Writes nothing",
    ...CLUSTER_HELP,
    "",
    "Each object names the step its chart's engine takes (`step`): helm.v4.Chart's",
    "provider replaces ConfigMaps and Secrets whose data changes, among others.",
    "Exit codes: 0, or with --detailed-exitcode 2 when something changed; 2 whatever the",
    "flags when the live review finds what would stop the deploy; 1 on failure. Changes",
    "that happen on every render (random passwords, generated certificates) are",
    "shown but not counted.",
  ],
  options: {
    stack: { type: "string" },
    to: { type: "string" },
    base: { type: "string" },
    ...VALUES_OPTIONS,
    "show-bookkeeping": { type: "boolean" },
    "show-secrets": { type: "boolean" },
    "show-schema-fields": { type: "boolean" },
    "context-lines": { type: "string", short: "C" },
    "no-cache": { type: "boolean" },
    ...CLUSTER_OPTIONS,
  },
  reports: ["diff"],
  async run(project, args, context) {
    const [{ diff }, { valuesFiles }] = await Promise.all([import("../../workflows/diff.js"), import("./values-files.js")]);
    const cluster = clusterOption(args, context.cwd);
    return diff(project, {
      ...(cluster === undefined ? {} : { cluster }),
      charts: args.positionals,
      stack: stringOption(args, "stack"),
      to: stringOption(args, "to"),
      base: stringOption(args, "base"),
      values: await valuesFiles(context, args),
      showSecrets: flag(args, "show-secrets"),
      showBookkeeping: flag(args, "show-bookkeeping"),
      showSchemaFields: flag(args, "show-schema-fields"),
      ...(countOption(args, "context-lines") === undefined ? {} : { context: countOption(args, "context-lines") }),
      noCache: flag(args, "no-cache"),
    });
  },
  exitCode: (report) => (report.changed ? 2 : 0),
  failed: (report) => report.charts.some((chart) => liveStops(chart.live)),
};
