// `chartroom lock` with each chart's images resolved to digests through a
// real registry on loopback (Debian's docker-registry, declared as
// registry.example.test's endpoint), against `lock --offline` (the images
// recorded, no registry asked): cold (a new cache, nothing locked) and warm
// (nothing changed, so no image is asked again). The example platform and a
// platform of 30 charts.
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pinnedHelm } from "../src/render/helm-binary.js";
import { pushImage, startRegistry } from "../test/helpers/registry.js";
import { median, ms } from "./lib/serve.js";
import { chartroom, makePlatform } from "./platform-scale.js";

const ROOT = resolve(import.meta.dirname, "..");

async function declareEndpoint(dir: string, host: string): Promise<void> {
  const file = join(dir, "chartroom.config.ts");
  const text = await readFile(file, "utf8");
  await writeFile(file, text.replace("  stacks: {", `  registries: { "registry.example.test": { endpoint: "http://${host}" } },\n  stacks: {`));
}

/** Cold and warm, with and without the registry, medians of three. */
async function figures(dir: string, helm: string): Promise<Record<string, number>> {
  let round = 0;
  const cold = (args: string[]) =>
    median(3, async () => {
      await rm(join(dir, "charts.lock.json"), { force: true });
      return (await chartroom(dir, args, join(dir, `.cache-${round++}`), helm)).ms;
    });
  const coldImages = await cold(["lock"]);
  const coldOffline = await cold(["lock", "--offline"]);
  const cache = join(dir, ".cache-warm");
  await chartroom(dir, ["lock"], cache, helm);
  const warmImages = await median(3, async () => (await chartroom(dir, ["lock"], cache, helm)).ms);
  await chartroom(dir, ["lock", "--offline"], cache, helm);
  const warmOffline = await median(3, async () => (await chartroom(dir, ["lock", "--offline"], cache, helm)).ms);
  await chartroom(dir, ["lock"], cache, helm);
  const frozen = await median(3, async () => (await chartroom(dir, ["lock", "--frozen"], cache, helm)).ms);
  // The figures count only if every image use really got its digest.
  const lock = JSON.parse(await readFile(join(dir, "charts.lock.json"), "utf8")) as {
    charts: Record<string, { images: Record<string, { digest?: string }[]> }>;
  };
  const uses = Object.values(lock.charts).flatMap((pin) => Object.values(pin.images).flat());
  if (uses.length === 0 || uses.some((use) => use.digest === undefined)) throw new Error(`not every image was locked: ${JSON.stringify(uses)}`);
  return { coldImages, coldOffline, warmImages, warmOffline, frozen, uses: uses.length };
}

export async function benchImageLock(cacheRoot: string): Promise<Record<string, string | number>> {
  const home = await mkdtemp(join(tmpdir(), "chartroom-bench-images-"));
  await mkdir(join(home, "registry"));
  const registry = await startRegistry(join(home, "registry"));
  try {
    const helm = (await pinnedHelm(4, cacheRoot)).path;
    for (const [name, tag] of [
      ["webapp", "1.4.1"],
      ["ledger", "3.2.0"],
      ["widgets-operator", "0.9.0"],
      ["curl", "8"],
      ["service", "1.0.0"],
    ])
      await pushImage(registry.base, name as string, tag as string, { platforms: ["linux/amd64", "linux/arm64"] });
    const example = join(home, "example");
    await mkdir(example);
    for (const name of ["chartroom.config.ts", "charts", "values", "policies"]) await cp(join(ROOT, name), join(example, name), { recursive: true });
    await declareEndpoint(example, registry.host);
    const small = await figures(example, helm);
    const platform = join(home, "platform");
    await mkdir(platform);
    await makePlatform(platform, helm, 30, ["prod"]);
    await declareEndpoint(platform, registry.host);
    const large = await figures(platform, helm);
    const row = (label: string, f: Record<string, number>) => ({
      [`${label}: cold lock, images resolved`]: ms(f.coldImages ?? 0),
      [`${label}: cold lock --offline`]: ms(f.coldOffline ?? 0),
      [`${label}: warm lock, images resolved`]: ms(f.warmImages ?? 0),
      [`${label}: warm lock --offline`]: ms(f.warmOffline ?? 0),
      [`${label}: lock --frozen (every tag asked again)`]: ms(f.frozen ?? 0),
      [`${label}: image uses locked`]: f.uses ?? 0,
      [`${label}: cold resolved / offline`]: Number(((f.coldImages ?? 0) / (f.coldOffline ?? 1)).toFixed(3)),
    });
    return {
      work: "lock with image digests from a loopback registry vs --offline; example (4 charts, 2 stacks, 12 image uses) and 30 charts × 1 stack",
      ...row("example", small),
      ...row("30 charts", large),
    };
  } finally {
    await registry.stop();
    await rm(home, { recursive: true, force: true });
  }
}
