import type { ImagesReport } from "../../report/images.js";
import { stringOption, type Command } from "../command.js";

export const imagesCommand: Command<ImagesReport> = {
  name: "images",
  summary: "list every container image the charts run, with its locked digest",
  usage: "chartroom images [<chart>...] [--stack S]",
  help: [
    "Lists, from charts.lock.json, each container image every chart runs per stack",
    "(containers, init and ephemeral containers of every workload, CronJob templates,",
    "and the custom resource fields named by imageFields): the object, the container,",
    "the reference as rendered, the digest `chartroom lock` recorded for it and, for a",
    "multi-platform index, how many platforms it lists. An image without a digest",
    "says why. Reads the lock only: no render, no registry.",
    "",
    "      --stack <name>       one stack only",
  ],
  options: { stack: { type: "string" } },
  reports: ["images"],
  run: async (project, args) => (await import("../../workflows/images.js")).images(project, { charts: args.positionals, stack: stringOption(args, "stack") }),
  exitCode: () => 0,
};
