// Run before the tests (npm's pretest): installs or builds what the tests
// need, and says exactly what to run where it may not.
// - Debian's docker-registry for the OCI tests and chromium for the HTML report
//   test (apt-get, as root; playwright's own browser download cannot work here);
// - the real Pulumi engine, built from Go modules (engine/build.sh, cached);
// - dist/, which the example Pulumi program imports as `chartroom/pulumi`.
// Helm comes from dev dependencies.
import { execFileSync, spawnSync } from "node:child_process";
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

const missing = [["docker-registry", "docker-registry"], ["chromium", "chromium"]].filter(([command]) => !onPath(command as string)).map(([, pkg]) => pkg as string);
if (missing.length > 0) aptInstall(missing, "the OCI tests need docker-registry, the HTML report test chromium");

// Prints progress on stderr; the second run only hashes go.sum and returns.
const engine = spawnSync("bash", [resolve(root, "engine/build.sh")], { stdio: ["ignore", "ignore", "inherit"] });
if (engine.status !== 0) fail("the engine tests need the Pulumi engine: engine/build.sh failed (see above).");

const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
if (build.status !== 0) fail("the example Pulumi program imports dist/: `npm run build` failed (see above).");
