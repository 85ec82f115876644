import type { RenderReport } from "../../report/render.js";
import { flag, stringOption, type Command } from "../command.js";
import { VALUES_HELP, VALUES_OPTIONS } from "./values-options.js";

export const renderCommand: Command<RenderReport> = {
  name: "render",
  summary: "render a chart with the platform's values, offline",
  usage: "chartroom render <chart> [--stack S] [--version <v|wanted|latest>]",
  help: [
    "Runs helm template for the pinned version (or --version) with the stack's",
    "kube version, API versions and values files. Secret values are hidden.",
    "",
    "      --stack <name>     the stack (required when several are declared)",
    "      --version <v>      another version than the pin: exact, `wanted` or `latest`",
    ...VALUES_HELP,
    "      --summary          a table of the objects instead of YAML",
    "      --show-secrets     print Secret values",
    "      --no-cache         render again even when cached",
  ],
  options: {
    stack: { type: "string" },
    version: { type: "string" },
    ...VALUES_OPTIONS,
    summary: { type: "boolean" },
    "show-secrets": { type: "boolean" },
    "no-cache": { type: "boolean" },
  },
  reports: ["render"],
  async run(project, args, context) {
    const [{ render }, { valuesFiles }] = await Promise.all([import("../../workflows/render.js"), import("./values-files.js")]);
    return render(project, {
      chart: args.positionals[0] as string,
      stack: stringOption(args, "stack"),
      version: stringOption(args, "version"),
      values: await valuesFiles(context, args),
      showSecrets: flag(args, "show-secrets"),
      noCache: flag(args, "no-cache"),
    });
  },
  exitCode: () => 0,
};
