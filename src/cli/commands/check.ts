import type { CheckReport } from "../../report/check.js";
import { VALUES_HELP, VALUES_OPTIONS } from "./values-options.js";
import { CLUSTER_HELP, CLUSTER_OPTIONS, clusterOption, stringOption, type Command } from "../command.js";

export const checkCommand: Command<CheckReport> = {
  name: "check",
  summary: "validate every chart's values for every stack, and catch unknown keys",
  usage: "chartroom check [<chart>...] [--stack S] [--strict] [-f F] [--set k=v] [--cluster [--kubeconfig F] [--context C]]",
  help: [
    "Coalesces the chart's defaults with values/<chart>/values.yaml and",
    "values/<chart>/<stack>.yaml as Helm does, validates the result against the",
    "pinned version's values.schema.json (honouring its $schema draft, subcharts",
    "against their own), reports keys the chart does not know, and values files",
    "no declared chart or stack reads; then renders every chart of each stack and",
    "runs the policy rules (policies/) over all of them together.",
    "Exits 2 when any error is found (with or without --detailed-exitcode: it is a gate).",
    "",
    "      --stack <name>       one stack only",
    "      --strict             values files nothing reads are errors, not warnings",
    ...VALUES_HELP,
    "                         (for the one chart named: above its files, in every stack)",
    "      --cluster            also ask the cluster whether the kubeconfig's identity may",
    "                           deploy the stack: every verb per kind and namespace the",
    "                           engine uses (apply, await, Helm's release record, RBAC it",
    "                           grants), each refused one an error worded as the API server",
    "                           words it. With --format yaml: the least-privilege Role and",
    "                           ClusterRole, with bindings, that grant exactly those",
    ...CLUSTER_HELP,
  ],
  options: { stack: { type: "string" }, strict: { type: "boolean" }, ...VALUES_OPTIONS, ...CLUSTER_OPTIONS },
  reports: ["check"],
  run: async (project, args, context) => {
    const cluster = clusterOption(args, context.cwd);
    const [{ check }, { valuesFiles }] = await Promise.all([import("../../workflows/check.js"), import("./values-files.js")]);
    return check(project, {
      values: await valuesFiles(context, args),
      charts: args.positionals,
      stack: stringOption(args, "stack"),
      strict: args.values.strict === true,
      ...(cluster === undefined ? {} : { cluster }),
    });
  },
  exitCode: (report) => (report.failed ? 2 : 0),
  failed: (report) => report.failed,
};
