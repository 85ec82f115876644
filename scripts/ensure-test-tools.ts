// Run before the tests: the OCI tests need Debian's docker-registry (CNCF
// distribution). Installs it when missing and we may (root with apt-get);
// otherwise says exactly what to run. Helm comes from dev dependencies.
import { execFileSync, spawnSync } from "node:child_process";

function onPath(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

if (!onPath("docker-registry")) {
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  if (!root || !onPath("apt-get")) {
    process.stderr.write("The OCI tests need docker-registry: run `sudo apt-get install -y docker-registry` and try again.\n");
    process.exit(1);
  }
  process.stderr.write("installing docker-registry for the OCI tests (apt-get)…\n");
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
  execFileSync("apt-get", ["install", "-y", "-qq", "docker-registry"], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
}
