// Run before the tests (npm's pretest): installs or builds what the tests
// need, and says exactly what to run where it may not.
// - Debian's docker-registry for the OCI tests, chromium for the HTML report
//   test (apt-get, as root; playwright's own browser download cannot work here),
//   zsh and fish for the completion test (bash is there already);
// - the real Pulumi engine, built from Go modules (engine/build.sh, cached);
// - the Kubernetes control plane and kwok, built from Go modules (kube/build.sh,
//   cached), over Debian's etcd;
// - dist/, which the example Pulumi program imports as `chartroom/pulumi`;
// - the oldest Node `engines` allows, for the consumer test (npm's node-<os>-<arch>);
// - Renovate (RENOVATE_VERSION, from npm), which the preset test runs on the example.
// Helm comes from dev dependencies.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");

function onPath(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function aptInstall(packages: string[], why: string): void {
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  if (!root || !onPath("apt-get")) fail(`${why}: run \`sudo apt-get install -y ${packages.join(" ")}\` and try again.`);
  process.stderr.write(`installing ${packages.join(", ")} (${why}; apt-get)…\n`);
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
  execFileSync("apt-get", ["install", "-y", "-qq", ...packages], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
}

const missing = [
  ["docker-registry", "docker-registry"],
  ["chromium", "chromium"],
  ["zsh", "zsh"],
  ["fish", "fish"],
]
  .filter(([command]) => !onPath(command as string))
  .map(([, pkg]) => pkg as string);
if (missing.length > 0) aptInstall(missing, "the OCI tests need docker-registry, the HTML report test chromium, the completion test zsh and fish");

// Prints progress on stderr; the second run only hashes go.sum and returns.
const engine = spawnSync("bash", [resolve(root, "engine/build.sh")], { stdio: ["ignore", "ignore", "inherit"] });
if (engine.status !== 0) fail("the engine tests need the Pulumi engine: engine/build.sh failed (see above).");

// The same for the control plane of the cluster tests (kube-apiserver, controller-manager, scheduler, kwok).
const kube = spawnSync("bash", [resolve(root, "kube/build.sh")], { stdio: ["ignore", "ignore", "inherit"] });
if (kube.status !== 0) fail("the cluster tests need the control plane: kube/build.sh failed (see above).");

const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
if (build.status !== 0) fail("the example Pulumi program imports dist/: `npm run build` failed (see above).");

// The consumer test runs programs with the oldest Node that `engines` allows:
// that Node's official build, as npm serves it (node-<os>-<arch>), unpacked once.
const floor = nodeFloor();
if (floor !== undefined) {
  const dir = resolve(root, ".cache/test", `node-${floor.version}`);
  if (!existsSync(resolve(dir, "bin/node"))) {
    process.stderr.write(`fetching Node ${floor.version} (the engines floor) from npm as ${floor.pkg}…\n`);
    mkdirSync(dir, { recursive: true });
    const packed = spawnSync("npm", ["pack", `${floor.pkg}@${floor.version}`, "--silent", "--pack-destination", dir], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    if (packed.status !== 0) fail(`the consumer test needs Node ${floor.version}: \`npm pack ${floor.pkg}@${floor.version}\` failed (see above).`);
    const tarball = resolve(dir, packed.stdout.trim().split("\n").at(-1) ?? "");
    execFileSync("tar", ["-xzf", tarball, "-C", dir, "--strip-components=1", "package/bin/node"]);
    rmSync(tarball);
  }
}

// The Renovate the preset test runs (renovate/chartroom.json): the last major that runs on Node 20.
// Its install scripts are skipped: RE2's native build (Renovate then uses JavaScript's RegExp; the
// unit test holds the preset's patterns to RE2's syntax with re2js).
const RENOVATE_VERSION = "39.100.0";
const renovateDir = resolve(root, ".cache/test", `renovate-${RENOVATE_VERSION}`);
if (!existsSync(resolve(renovateDir, "node_modules/.bin/renovate"))) {
  process.stderr.write(`installing renovate ${RENOVATE_VERSION} for the preset test (npm, about 2 minutes the first time)…\n`);
  mkdirSync(renovateDir, { recursive: true });
  const installed = spawnSync(
    "npm",
    ["install", `renovate@${RENOVATE_VERSION}`, "--prefix", renovateDir, "--ignore-scripts", "--no-audit", "--no-fund", "--no-save", "--loglevel=error"],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  if (installed.status !== 0) fail(`the preset test needs Renovate: \`npm install renovate@${RENOVATE_VERSION} --prefix ${renovateDir}\` failed (see above).`);
}

function nodeFloor(): { version: string; pkg: string } | undefined {
  const engines = (JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")) as { engines: { node: string } }).engines.node;
  const version = /^>=(\d+)\.(\d+)(?:\.(\d+))?$/.exec(engines);
  if (version === null) fail(`package.json engines.node is ${engines}; the consumer test reads a floor of the form >=MAJOR.MINOR`);
  const os = process.platform === "win32" ? "win" : process.platform;
  // npm has these builds for linux and darwin on x64 and arm64; elsewhere the test says what it skipped.
  if (!["linux", "darwin"].includes(os) || !["x64", "arm64"].includes(process.arch)) return undefined;
  return { version: `${version[1]}.${version[2]}.${version[3] ?? "0"}`, pkg: `node-${os}-${process.arch}` };
}
