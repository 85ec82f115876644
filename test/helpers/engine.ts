import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load } from "js-yaml";
import { builtBy } from "./built.js";
import { ROOT } from "./platform.js";
import { runGroup } from "./process.js";

/**
 * The folder holding the real pulumi, pulumi-language-nodejs,
 * pulumi-resource-kubernetes and helm, built by engine/build.sh.
 */
export function engineBin(): Promise<string> {
  return builtBy("engine/build.sh", 60 * 60_000);
}

export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** The example platform's files: what a user has in their repository. */
const EXAMPLE = [
  "Pulumi.yaml",
  "package.json",
  "tsconfig.json",
  "chartroom.config.ts",
  "chartroom.types.ts",
  "charts.lock.json",
  "charts",
  "values",
  "pulumi",
  "policies",
];

/**
 * A copy of the example Pulumi project in a temporary folder, with its own
 * local backend, Pulumi home, passphrase and HOME (so no kubeconfig of this
 * machine is found), and the engine first on PATH.
 */
export class ExampleProject {
  private constructor(
    readonly dir: string,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  static async create(prefix = "chartroom-engine-"): Promise<ExampleProject> {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    for (const name of EXAMPLE) await cp(join(ROOT, name), join(dir, name), { recursive: true });
    // Installed dependencies and the built package, as `npm install` leaves them.
    await symlink(join(ROOT, "node_modules"), join(dir, "node_modules"));
    await symlink(join(ROOT, "dist"), join(dir, "dist"));
    await mkdir(join(dir, ".state"));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${await engineBin()}:${process.env.PATH ?? ""}`,
      HOME: dir,
      PULUMI_HOME: join(dir, ".pulumi-home"),
      PULUMI_BACKEND_URL: `file://${join(dir, ".state")}`,
      PULUMI_CONFIG_PASSPHRASE: "engine-test-passphrase",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      CHARTROOM_CACHE: join(dir, ".cache"),
      CHARTROOM_TODAY: "2026-11-30",
      NO_COLOR: "1",
    };
    // The SDK's Provider takes KUBECONFIG as its kubeconfig, which the
    // provider refuses next to renderYamlToDirectory.
    delete env.KUBECONFIG;
    return new ExampleProject(dir, env);
  }

  get rendered(): string {
    return join(this.dir, "rendered");
  }

  /**
   * Runs the real pulumi CLI in the project (more environment in `env`);
   * never throws on a non-zero exit. The CLI, its language host, the program
   * and the provider are one process group, killed whole at the ceiling (a
   * hang, not slowness: it is many times what a loaded machine needs), and
   * the stack's lock is released so the next command is not refused.
   */
  async pulumi(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = PULUMI_CEILING_MS): Promise<Outcome> {
    try {
      return await execute(join(await engineBin(), "pulumi"), [...args, "--non-interactive", "--color", "never"], this.dir, { ...this.env, ...env }, timeoutMs);
    } catch (error) {
      await rm(join(this.dir, ".state", ".pulumi", "locks"), { recursive: true, force: true });
      throw error;
    }
  }

  /** Runs chartroom's CLI in the project as a user would (from the checkout's sources). */
  async chartroom(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Outcome> {
    return execute(
      process.execPath,
      [join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), join(ROOT, "src", "cli", "main.ts"), ...args],
      this.dir,
      { ...this.env, ...env },
      PULUMI_CEILING_MS,
    );
  }

  /**
   * `pulumi stack init`, the planted secret, and render mode (or, given a
   * kubeconfig, that cluster as a secret): a stack ready to preview.
   */
  async initStack(stack: string, password: string, kubeconfig?: string): Promise<void> {
    for (const args of [
      ["stack", "init", stack],
      ["config", "set", "--secret", "webappPassword", password],
      kubeconfig === undefined ? ["config", "set", "renderYamlToDirectory", this.rendered] : ["config", "set", "--secret", "kubeconfig", kubeconfig],
    ]) {
      const outcome = await this.pulumi(args);
      if (outcome.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed:\n${outcome.stderr}${outcome.stdout}`);
    }
  }

  /**
   * The values the example program gives the web app in code, as a values
   * file (`code-values.yaml`) for chartroom's `-f`: what chartroom cannot see
   * in the program. Returns the file's name in the project.
   */
  async writeCodeValues(password: string): Promise<string> {
    await writeFile(join(this.dir, "code-values.yaml"), `podAnnotations:\n  example.test/stack: dev\nauth:\n  password: ${password}\n`);
    return "code-values.yaml";
  }

  async remove(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** The most one pulumi command may take: idle they take 5–60 s, on a loaded 2-core machine up to about 4 minutes. */
export const PULUMI_CEILING_MS = 20 * 60_000;

/** What an engine or cluster test may take in all (several pulumi commands), for vitest. */
export const ENGINE_TEST_MS = 45 * 60_000;

async function execute(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeout: number): Promise<Outcome> {
  const outcome = await runGroup(file, args, { cwd, env, timeoutMs: timeout, wholeEnv: true });
  return { code: outcome.code ?? 1, stdout: outcome.stdout, stderr: outcome.stderr };
}

export interface WrittenObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string>; labels?: Record<string, string> };
  [field: string]: unknown;
}

/** Every object the provider wrote under renderYamlToDirectory (its 0-crd and 1-manifest folders). */
export async function writtenObjects(dir: string): Promise<WrittenObject[]> {
  const out: WrittenObject[] = [];
  for (const folder of ["0-crd", "1-manifest"]) {
    const files = await readdir(join(dir, folder)).catch(() => [] as string[]);
    for (const file of files.sort()) out.push(load(await readFile(join(dir, folder, file), "utf8")) as WrittenObject);
  }
  return out;
}

/** chartroom's object identity: `Kind.group namespace/name` (the group omitted for the core API). */
export function displayOf(object: WrittenObject): string {
  const group = object.apiVersion.includes("/") ? `.${object.apiVersion.split("/")[0]}` : "";
  const where = object.metadata.namespace === undefined ? object.metadata.name : `${object.metadata.namespace}/${object.metadata.name}`;
  return `${object.kind}${group} ${where}`;
}

export interface PreviewStep {
  op: string;
  urn: string;
  type: string;
  name: string;
}

/** The steps of `pulumi preview --json`, one per resource URN. */
export function previewSteps(json: string): PreviewStep[] {
  const parsed = JSON.parse(json) as { steps?: { op: string; urn: string }[] };
  return (parsed.steps ?? []).map((step) => {
    const parts = step.urn.split("::");
    const type = (parts[2] ?? "").split("$").at(-1) ?? "";
    return { op: step.op, urn: step.urn, type, name: parts[3] ?? "" };
  });
}
