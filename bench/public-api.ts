import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { median, ms } from "./lib/serve.js";

const run = promisify(execFile);
const root = join(import.meta.dirname, "..");

/** What `import "chartroom"` costs a program, and the CLI's start-up for `--help`. Needs dist/ (npm run build). */
export async function benchPublicApi(): Promise<Record<string, string | number>> {
  const probe = `const t = performance.now(); await import(${JSON.stringify(join(root, "dist", "index.js"))}); process.stdout.write(String(performance.now() - t));`;
  const imports: number[] = [];
  for (let i = 0; i < 7; i++) imports.push(Number((await run(process.execPath, ["--input-type=module", "-e", probe])).stdout));
  imports.sort((a, b) => a - b);
  const distHelp = await median(7, () => run(process.execPath, [join(root, "dist", "cli", "main.cjs"), "--help"]));
  const tsxHelp = await median(5, () => run(process.execPath, [join(root, "bin", "chartroom.js"), "--help"]));
  const node = await median(7, () => run(process.execPath, ["-e", ""]));
  return {
    'import "chartroom" (dist, in a fresh process; target ≤ 50 ms)': ms(imports[3] ?? 0),
    "chartroom --help from dist/ (whole process)": ms(distHelp),
    "chartroom --help from a checkout (tsx; whole process)": ms(tsxHelp),
    "node -e '' (the floor)": ms(node),
  };
}
