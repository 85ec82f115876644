import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join, relative, sep } from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { ChartroomError, InternalError } from "../../errors/index.js";
import { pinBody } from "../../images/pin.js";
import { sha256Hex } from "../../util/hash.js";
import type { DeploymentPlan } from "../../workflows/deployments.js";
import { manifestObject, type PostRenderSettings } from "../post-render.js";
import { byText } from "../../util/order.js";

/**
 * A `transforms` entry for helm.v4.Chart with pinImages: each child's images
 * rewritten to `repo:tag@sha256:<locked digest>`. An image the lock does not
 * record stops the deployment: running a tag unreviewed is what pinImages is
 * there to prevent.
 */
export function pinImagesTransform(plan: DeploymentPlan): pulumi.ResourceTransform {
  const digests = plan.images ?? new Map<string, string>();
  return (args) => {
    if (!args.custom) return undefined;
    const props = args.props as Record<string, unknown>;
    const object = manifestObject(props);
    const { body, unpinned } = pinBody(object, digests, plan.spec.imageFields);
    const missing = unpinned.filter((entry) => entry.why === "not-locked");
    if (missing.length > 0)
      throw notLocked(
        plan,
        `${object.kind} ${args.name}`,
        missing.map((entry) => entry.use.written),
      );
    return body === props ? undefined : { props: body, opts: args.opts };
  };
}

/**
 * The post-renderer a helm.v3.Release with pinImages runs: a script under
 * the project's .chartroom/post-render/, named by what it pins, written
 * when the program runs (it names this installation's chartroom), and given
 * by a path relative to the program's folder, so the Release's inputs are
 * the same on every machine.
 */
export function pinImagesPostRenderer(plan: DeploymentPlan): string {
  const settings: PostRenderSettings = {
    chart: plan.spec.key,
    digests: Object.fromEntries([...(plan.images ?? new Map<string, string>())].sort(([a], [b]) => byText(a, b))),
    fields: plan.spec.imageFields,
    ...(plan.postRenderer === undefined ? {} : { first: plan.postRenderer }),
  };
  const folder = join(dirname(dirname(plan.chart)), "post-render");
  const path = join(folder, `${plan.spec.key}-${sha256Hex(JSON.stringify(settings)).slice(0, 12)}.mjs`);
  const script = [
    "#!/usr/bin/env node",
    `// Written by chartroom for ${plan.spec.key} (pinImages): pins its images by the digests in charts.lock.json.`,
    `const { postRenderMain } = await import(${JSON.stringify(postRenderModule())});`,
    `await postRenderMain(${JSON.stringify(settings)});`,
    "",
  ].join("\n");
  let current: string | undefined;
  try {
    current = readFileSync(path, "utf8");
  } catch {
    current = undefined;
  }
  if (current !== script) {
    mkdirSync(folder, { recursive: true });
    writeFileSync(path, script, { mode: 0o755 });
  }
  const shown = relative(process.cwd(), path).split(sep).join("/");
  return shown.includes("/") ? shown : `./${shown}`;
}

/**
 * The post-render program of this installation: dist/cli/post-render.js (an
 * ES module, which the CommonJS build under dist/cjs/ uses too).
 */
function postRenderModule(): string {
  const candidates = ["../../cli/post-render.js", "../../../cli/post-render.js"].map((path) => new URL(path, import.meta.url));
  const found = candidates.find((url) => existsSync(fileURLToPath(url)));
  if (found === undefined) {
    throw new InternalError(`chartroom's post-render program is not beside ${fileURLToPath(import.meta.url)} (dist/cli/post-render.js): is the package built?`);
  }
  return found.href;
}

function notLocked(plan: DeploymentPlan, object: string, images: string[]): ChartroomError {
  return new ChartroomError("LOCK_STALE", `${object} of ${plan.spec.key} runs ${images.join(", ")}, which charts.lock.json does not lock (pinImages)`, {
    place: { chart: plan.spec.key },
    hint: "run `chartroom lock` (it records every image the charts run) and commit charts.lock.json",
  });
}
