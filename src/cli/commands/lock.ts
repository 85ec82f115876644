import type { LockReport, VerifyReport } from "../../report/lock.js";
import { flag, type Command } from "../command.js";

export const lockCommand: Command<LockReport | VerifyReport> = {
  name: "lock",
  summary: "resolve declared ranges and pin them in charts.lock.json",
  usage: "chartroom lock [<chart>...] [--frozen] [--offline] [--accept-republished] [--allow-downgrade] [--accept-new-signer] [--accept-moved-images]",
  help: [
    "Resolves every declared range (or only the named charts, plus any whose",
    "declaration changed), fetches and verifies each archive, inspects it, renders",
    "it per stack for its hook facts and the container images it runs, asks each",
    "image's registry (only those the config declares) for the digest its tag names,",
    "and writes charts.lock.json once everything succeeded. Nothing is written on failure.",
    "",
    "      --frozen               write nothing; exit 1 when the lock no longer matches",
    "                             the declarations or a pinned archive changed (for CI)",
    "      --accept-republished   pin an archive republished under its pinned version",
    "                             with other bytes (refused otherwise; review it first)",
    "      --allow-downgrade      let a pin move down when the repository no longer",
    "                             lists the pinned version (refused otherwise)",
    "      --accept-new-signer    pin a version signed by another key of the keyring than",
    "                             the one the lock records (refused otherwise)",
    "      --offline              ask no image registry: new images are recorded without",
    "                             a digest (and said so); with --frozen, tags are not rechecked",
    "      --accept-moved-images  take the digest a locked image tag names now, where it",
    "                             moved (refused otherwise; --frozen refuses it always)",
  ],
  options: {
    frozen: { type: "boolean" },
    "accept-republished": { type: "boolean" },
    "allow-downgrade": { type: "boolean" },
    "accept-new-signer": { type: "boolean" },
    offline: { type: "boolean" },
    "accept-moved-images": { type: "boolean" },
  },
  reports: ["lock", "verify"],
  async run(project, args) {
    const { lock, verify } = await import("../../workflows/lock.js");
    return flag(args, "frozen")
      ? verify(project, { offline: flag(args, "offline") })
      : lock(project, {
          offline: flag(args, "offline"),
          acceptMovedImages: flag(args, "accept-moved-images"),
          charts: args.positionals,
          acceptRepublished: flag(args, "accept-republished"),
          allowDowngrade: flag(args, "allow-downgrade"),
          acceptNewSigner: flag(args, "accept-new-signer"),
        });
  },
  exitCode: () => 0,
};
