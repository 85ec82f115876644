/**
 * What a reviewer reads: the size of each format of the review of the
 * biggest bench chart's bump (213 objects, dashboards as one-line JSON), and
 * the lines the text review prints for a ConfigMap file with one line changed
 * and for a container's args with one flag added. Sizes, not times: the same
 * on any machine. CHARTROOM_BENCH_OLD_CLI=<an earlier build's dist/cli/main.cjs>
 * prints the same figures for it beside these.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { packChart } from "../test/helpers/pack.js";
import { pinnedHelm } from "../src/render/helm-binary.js";
import { appChart } from "./lib/real-charts.js";
import { platform, type Chart } from "./peers.js";

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "..");
const CLIS: [string, string][] = [["this build", join(ROOT, "dist", "cli", "main.cjs")]];
if (process.env.CHARTROOM_BENCH_OLD_CLI !== undefined) CLIS.push(["the other build", process.env.CHARTROOM_BENCH_OLD_CLI]);

/** A chart whose ConfigMap holds a 40-line file and whose container takes 8 flags; version 2 changes one line and adds one flag. */
function linesChart(version: 1 | 2): Promise<Buffer> {
  const config = Array.from({ length: 40 }, (_, i) => `setting_${i} = ${version === 2 && i === 17 ? "changed" : `value-${i}`}`);
  const flags = ["--port=8080", "--log-format=json", "--metrics", "--probe-port=9000", "--workers=4", "--cache=/tmp", "--timeout=30s", "--verbose"];
  if (version === 2) flags.splice(4, 0, "--tracing");
  const files = new Map<string, Buffer>([
    ["Chart.yaml", Buffer.from(`apiVersion: v2\nname: lines\nversion: ${version}.0.0\n`)],
    [
      "templates/all.yaml",
      Buffer.from(
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lines\ndata:\n  app.conf: |\n${config.map((line) => `    ${line}`).join("\n")}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: lines\nspec:\n  selector:\n    matchLabels: { app: lines }\n  template:\n    metadata:\n      labels: { app: lines }\n    spec:\n      containers:\n        - name: app\n          image: registry.example.test/lines:1\n          args:\n${flags.map((flag) => `            - "${flag}"`).join("\n")}\n`,
      ),
    ],
  ]);
  return packChart("lines", files, new Date(0));
}

/** The text lines of one object's entry in a text diff (its header to the next object's). */
function entryLines(text: string, header: RegExp): number {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => header.test(line));
  if (start === -1) return 0;
  const end = lines.findIndex((line, i) => i > start && (/^ {2}[~+\-!>] /.test(line) || line.trim() === ""));
  return (end === -1 ? lines.length : end) - start;
}

export async function benchReportSizes(): Promise<Record<string, string | number>> {
  const helm = (await pinnedHelm(4, join(ROOT, ".cache", "test"))).path;
  const scratch = await mkdtemp(join(tmpdir(), "chartroom-report-sizes-"));
  try {
    const big: Chart = {
      key: "big",
      chart: "big",
      namespace: "big",
      versions: [await appChart("big", 1, { workers: 40, dashboards: 5 }), await appChart("big", 2, { workers: 40, dashboards: 5 })],
    };
    const lines: Chart = { key: "lines", chart: "lines", namespace: "lines", versions: [await linesChart(1), await linesChart(2)] };
    const out: Record<string, string | number> = {};
    for (const [name, chart] of [
      ["big", big],
      ["lines", lines],
    ] as const) {
      const dir = join(scratch, name);
      await mkdir(dir);
      await platform(dir, [chart], helm);
      await run(process.execPath, [CLIS[0]?.[1] as string, "lock"], {
        cwd: dir,
        env: { ...process.env, HELM_BIN: helm, CHARTROOM_CACHE: join(dir, ".cache") },
      });
    }
    for (const [label, cli] of CLIS) {
      const diff = async (dir: string, format: string) =>
        (
          await run(process.execPath, [cli, "diff", dir === "big" ? "big" : "lines", "--to", "2.0.0", "--stack", "prod", "--format", format], {
            cwd: join(scratch, dir),
            env: { ...process.env, HELM_BIN: helm, CHARTROOM_CACHE: join(scratch, dir, ".cache"), NO_COLOR: "1" },
            maxBuffer: 64 * 1024 * 1024,
          }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }))
        ).stdout;
      for (const format of ["text", "markdown", "html"]) {
        const text = await diff("big", format);
        out[`${label}: the 213-object chart's review, ${format}`] = `${(Buffer.byteLength(text) / 1024).toFixed(0)} KB, ${text.split("\n").length} lines`;
      }
      const small = await diff("lines", "text");
      out[`${label}: lines for a ConfigMap file with one of 40 lines changed`] = entryLines(small, /ConfigMap lines\/lines/);
      out[`${label}: lines for a container's args with one of 9 flags added`] = entryLines(small, /Deployment\.apps lines\/lines/);
    }
    return out;
  } finally {
    if (process.env.KEEP === undefined) await rm(scratch, { recursive: true, force: true });
    else process.stderr.write(`kept ${scratch}\n`);
  }
}

if (process.argv[1]?.endsWith("report-sizes.ts")) {
  for (const [label, value] of Object.entries(await benchReportSizes())) process.stdout.write(`- ${label}: ${value}\n`);
}
