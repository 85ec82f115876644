import { writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { ChartroomError } from "../errors/index.js";
import type { HelmBinary } from "./helm-binary.js";
import { helmEnv, ProcessFlood, ProcessTimeout, runProcess, type Runner } from "./run.js";
import type { ValuesLayer } from "../model/values.js";
import { writeError } from "../util/fs.js";
import { limiter } from "../util/pool.js";
import { makeTempDir, removeTempDir } from "../util/temp.js";

export interface TemplateRequest {
  helm: HelmBinary;
  /** Path of the chart archive (or folder). */
  chart: string;
  /** The chart key, for messages. */
  label: string;
  releaseName: string;
  namespace: string;
  kubeVersion?: string;
  apiVersions: string[];
  /** Lowest precedence first, as Helm applies repeated -f. */
  values: ValuesLayer[];
  /**
   * Render the chart's crds/ folder too (what a fresh install applies).
   * @default true
   */
  includeCrds?: boolean;
  /** A post-renderer command and its arguments (Helm 3's --post-renderer). */
  postRenderer?: { command: string; args: string[] };
  /**
   * What Helm would fetch while validating values against the chart's
   * values.schema.json: URLs or files it references (every Helm), or a
   * meta-schema its `$schema` names that Helm does not carry (Helm 4). Helm's
   * validation is then turned off; chartroom validates the values itself,
   * without fetching.
   */
  schemaFetch?: "references" | "meta-schema";
  timeoutMs?: number;
}

/**
 * Renders running at once in this process, whoever asks (a lock of 200
 * charts, both sides of many diffs): four per core, at least 8 — enough to
 * keep the cores busy while chartroom reads what finished, and each holds up
 * to GOMEMLIMIT (run.ts).
 */
const helmSlots = limiter(Math.max(8, 4 * availableParallelism()));

/**
 * `helm template` with values in 0600 temporary files (never on the command
 * line, never left behind). Failures become HELM_FAILED errors carrying the
 * template file and line from Helm's message and the command without values.
 */
export async function helmTemplate(request: TemplateRequest, run: Runner = runProcess): Promise<string> {
  const dir = await makeTempDir("values");
  const files: string[] = [];
  try {
    const flags: string[] = [];
    for (const [i, layer] of request.values.entries()) {
      // A --set flag goes to helm as one, so helm types its values itself (after every values file, whatever the order).
      if (layer.flag !== undefined) {
        flags.push(`--${layer.flag.option}`, layer.flag.arg);
        continue;
      }
      const file = join(dir, `${i}.yaml`);
      await writeFile(file, layer.text, { mode: 0o600 }).catch((error: unknown) => {
        throw writeError(error, file, "a temporary values file for helm", "set TMPDIR to a writable folder with space");
      });
      files.push(file);
    }
    const args = ["template", request.releaseName, request.chart, "--namespace", request.namespace];
    if (request.includeCrds !== false) args.push("--include-crds");
    if (request.postRenderer !== undefined) args.push(...postRendererArgs(request));
    if (skipsSchemaValidation(request)) args.push(skipSchemaFlag(request));
    if (request.kubeVersion !== undefined) args.push("--kube-version", request.kubeVersion);
    for (const api of request.apiVersions) args.push("--api-versions", api);
    for (const file of files) args.push("--values", file);
    args.push(...flags);
    const timeoutMs = request.timeoutMs ?? 120_000;
    const result = await helmSlots(() =>
      run(request.helm.path, args, { timeoutMs, env: helmEnv(process.env, { runsUserProgram: request.postRenderer !== undefined }) }),
    ).catch((error: unknown) => {
      throw helmDidNotRun(request, error, timeoutMs);
    });
    if (result.code !== 0) throw helmFailure(request, args, files, result.stderr);
    return result.stdout;
  } finally {
    await removeTempDir(dir, files);
  }
}

function helmDidNotRun(request: TemplateRequest, error: unknown, timeoutMs: number): ChartroomError {
  if (error instanceof ProcessTimeout) {
    return new ChartroomError("HELM_FAILED", `helm template of ${request.label} did not finish within ${Math.round(timeoutMs / 1000)} s; it was stopped`, {
      place: { chart: request.label },
      hint: "a template that loops or a very large values file; run `helm template` on the chart to see where it spends its time",
    });
  }
  if (error instanceof ProcessFlood) {
    return new ChartroomError("HELM_FAILED", `helm template of ${request.label} printed more than chartroom reads; it was stopped`, {
      place: { chart: request.label },
      hint: "a template that repeats without end, or values that multiply; run `helm template` on the chart to see its output",
    });
  }
  return new ChartroomError("HELM_NOT_FOUND", `cannot run helm at ${request.helm.path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {
    hint: "is helm installed? Set HELM_BIN to its path",
    cause: error,
  });
}

/**
 * Helm lists a chart's schema violations ("- at '/path': …") in an order
 * that changes from run to run (Go map order); sorted, two runs of the same
 * mistake print the same message.
 */
export function sortSchemaViolations(lines: string[]): string[] {
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => {
    out.push(...run.sort());
    run = [];
  };
  for (const line of lines) {
    if (/^\s*- at '/.test(line)) run.push(line);
    else {
      flush();
      out.push(line);
    }
  }
  flush();
  return out;
}

const TEMPLATE_PLACE = /([\w.-]+(?:\/charts\/[\w.-]+)*\/templates\/[^\s:()"]+?)(?::(\d+))?(?::(\d+))?(?=[\s:)"]|$)/;

function helmFailure(request: TemplateRequest, args: string[], files: string[], stderr: string): ChartroomError {
  const lines = sortSchemaViolations(
    stderr
      .split("\n")
      .map((line) => line.trimEnd())
      .filter(Boolean),
  );
  const first = lines.findIndex((line) => line.startsWith("Error:"));
  // A template's `fail` message is the chart author's text: a few KB of it, however long it is.
  const message = cut(first === -1 ? stderr.trim() : (lines[first] ?? "").replace(/^Error:\s*/, ""), MAX_MESSAGE);
  // Helm continues some errors on the next lines (schema violations, one per line).
  const more = first === -1 ? [] : lines.slice(first + 1, first + 11).map((line) => `helm: ${cut(line.trim(), MAX_LINE)}`);
  const place = TEMPLATE_PLACE.exec(message);
  const fileLayers = request.values.filter((layer) => layer.flag === undefined);
  const flagArgs = new Set(request.values.flatMap((layer) => (layer.flag === undefined ? [] : [layer.flag.arg])));
  const shownArgs = args.map((arg, at) => {
    // A --set's text may hold a password: its option is named, never its text.
    if (flagArgs.has(arg) && args[at - 1]?.startsWith("--set")) return "<given on the command line>";
    const index = files.indexOf(arg);
    return index === -1 ? arg : `<values: ${fileLayers[index]?.name ?? "layer"}>`;
  });
  return new ChartroomError("HELM_FAILED", `helm template failed for ${request.label}: ${message}`, {
    place: {
      chart: request.label,
      file: place?.[1],
      line: place?.[2] === undefined ? undefined : Number(place[2]),
      column: place?.[3] === undefined ? undefined : Number(place[3]),
    },
    details: [...more, `command: helm ${shownArgs.join(" ")}`, `helm ${request.helm.version} (${request.helm.origin})`],
    hint: place ? `see ${place[1]} in the chart; check the values it reads` : "check the values passed to the chart",
  });
}

/** Whether helm runs with its schema validation off: it would fetch something (Helm 3 reads an unknown `$schema` as draft-07, fetching nothing). */
export function skipsSchemaValidation(request: Pick<TemplateRequest, "schemaFetch" | "helm">): boolean {
  const [major] = majorMinor(request.helm.version);
  return request.schemaFetch === "references" || (request.schemaFetch === "meta-schema" && major >= 4);
}

/** A helm version's major and minor (`3.17.2` → 3, 17). */
function majorMinor(version: string): [number, number] {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return [major, minor];
}

/** `--skip-schema-validation`, which Helm has from 3.16 on. */
function skipSchemaFlag(request: TemplateRequest): string {
  const [major, minor] = majorMinor(request.helm.version);
  if (major === 3 && minor < 16) {
    throw new ChartroomError(
      "HELM_TOO_OLD",
      `${request.label}'s values.schema.json references URLs or files, which helm ${request.helm.version} would fetch while rendering; chartroom turns that off with --skip-schema-validation, which Helm has from 3.16`,
      {
        place: { chart: request.label },
        hint: "use helm ≥ 3.16 (point HELM_BIN at one); chartroom validates the values itself",
      },
    );
  }
  return "--skip-schema-validation";
}

const MAX_MESSAGE = 4096;
const MAX_LINE = 1024;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** Helm 3 runs a post-renderer command; Helm 4 only post-renderer plugins, which chartroom does not declare. */
function postRendererArgs(request: TemplateRequest): string[] {
  const renderer = request.postRenderer as { command: string; args: string[] };
  if (!request.helm.version.startsWith("3.")) {
    throw new ChartroomError("HELM_FAILED", `${request.label} declares a post-renderer, which helm ${request.helm.version} runs only as a plugin`, {
      place: { chart: request.label },
      hint: "render it with Helm 3 (point HELM_BIN at one; helm.v4.Chart's provider embeds Helm 3 too)",
    });
  }
  return ["--post-renderer", renderer.command, ...renderer.args.flatMap((arg) => ["--post-renderer-args", arg])];
}
