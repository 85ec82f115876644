import { readFileSync } from "node:fs";
import { pinManifests, type PostRenderSettings } from "../deploy/post-render.js";
import { ChartroomError, formatError } from "../errors/index.js";
import { runProcess } from "../render/run.js";

// The program behind the post-renderer script pinImages writes for a
// helm.v3.Release (deploy/pulumi/images.ts): Helm's manifests on stdin, the
// chart's own post-renderer first when it has one, the pinned manifests on
// stdout; a failure is a coded error on stderr and exit 1, which Helm reports.

const POST_RENDER_TIMEOUT_MS = 10 * 60 * 1000;

export async function postRenderMain(settings: PostRenderSettings): Promise<void> {
  try {
    let input = readFileSync(0, "utf8");
    if (settings.first !== undefined) {
      const result = await runProcess(settings.first.command, settings.first.args, { input, timeoutMs: POST_RENDER_TIMEOUT_MS });
      if (result.code !== 0) {
        throw new ChartroomError(
          "HELM_FAILED",
          `the post-renderer ${settings.first.command} of ${settings.chart} exited ${result.code}: ${result.stderr.trim()}`,
          {
            place: { chart: settings.chart, key: `charts.${settings.chart}.postRenderer` },
            hint: "run the post-renderer on `chartroom render` output to see why",
          },
        );
      }
      input = result.stdout;
    }
    process.stdout.write(pinManifests(input, settings));
  } catch (error) {
    process.stderr.write(`${ChartroomError.isInstance(error) ? formatError(error) : String(error)}\n`);
    process.exit(1);
  }
}
