// Prints the mutation scores of the last `npm run test:mutation` per folder and
// per file (a markdown table, as the README shows it). With --gate (CI, after
// the incremental run) it exits 1 when a file scores under its floor: 85 %, or
// the score test/mutation/floors.json records for it when that is lower (a
// ratchet: no file loses ground while the tests catch up). --record raises
// the floors to this run's scores.
//
//   tsx scripts/mutation-scores.ts [report.json] [--files] [--gate] [--record]
import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";

/** Every mutated file keeps at least this, and the whole its target (issue 29). */
export const FILE_FLOOR = 85;
export const TOTAL_TARGET = 90;

interface Mutant {
  status: string;
}

export interface Score {
  name: string;
  mutants: number;
  detected: number;
  survived: number;
  noCoverage: number;
}

/** Killed and timed out count as detected; compile and runtime errors and ignored mutants do not count at all. */
export function score(name: string, mutants: Mutant[]): Score {
  const valid = mutants.filter((mutant) => !["CompileError", "RuntimeError", "Ignored"].includes(mutant.status));
  return {
    name,
    mutants: valid.length,
    detected: valid.filter((mutant) => mutant.status === "Killed" || mutant.status === "Timeout").length,
    survived: valid.filter((mutant) => mutant.status === "Survived").length,
    noCoverage: valid.filter((mutant) => mutant.status === "NoCoverage").length,
  };
}

export const percent = (s: Score): number => (s.mutants === 0 ? 100 : (100 * s.detected) / s.mutants);

/** The folder a file is reported under: `src/policy/rules/x.ts` → `policy`, a pure file outside the pure folders → its own path. */
function folderOf(path: string, folders: string[]): string {
  const relative = path.replace(/^src\//, "");
  const first = relative.split("/")[0] ?? relative;
  return folders.includes(first) ? first : relative.replace(/\.ts$/, "");
}

const FLAGS = ["--files", "--gate", "--record"];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg.startsWith("-") && !FLAGS.includes(arg));
  if (unknown.length > 0) {
    console.error(`mutation-scores: unknown option ${unknown.join(", ")} (options: ${FLAGS.join(" ")})`);
    process.exit(2);
  }
  const reportPath = resolve(args.find((arg) => !arg.startsWith("-")) ?? ".cache/stryker/mutation.json");
  const text = await readFile(reportPath, "utf8").catch(() => {
    console.error(`mutation-scores: no report at ${reportPath}: run \`npm run test:mutation\` first`);
    process.exit(2);
  });
  const report = JSON.parse(text) as { files: Record<string, { mutants: Mutant[] }> };
  const pure = JSON.parse(await readFile(resolve("test/pure-core.json"), "utf8")) as { folders: string[] };
  const byPath = Object.entries(report.files).map(([path, file]) => [path.replace(/^.*?src\//, "src/"), file.mutants] as const);
  const files = byPath
    .map(([path, mutants]) => score(path, mutants))
    .filter((file) => file.mutants > 0)
    .sort((a, b) => a.name.localeCompare(b.name));
  const groups = new Map<string, Mutant[]>();
  for (const [path, mutants] of byPath) {
    const group = folderOf(path, pure.folders);
    groups.set(group, [...(groups.get(group) ?? []), ...mutants]);
  }
  const all = score(
    "all",
    byPath.flatMap(([, mutants]) => mutants),
  );
  const row = (s: Score) => `| \`${s.name}\` | ${s.mutants} | ${s.survived} | ${s.noCoverage} | ${percent(s).toFixed(1)} % |`;
  const lines = ["| | mutants | survived | no coverage | score |", "| --- | ---: | ---: | ---: | ---: |"];
  const rows = args.includes("--files")
    ? files
    : [...groups]
        .map(([name, mutants]) => score(name, mutants))
        .filter((group) => group.mutants > 0)
        .sort((a, b) => a.name.localeCompare(b.name));
  lines.push(...rows.map(row), row(all).replace("`all`", "**all**"));
  console.log(lines.join("\n"));
  const floorsPath = resolve("test/mutation/floors.json");
  const floors = JSON.parse(await readFile(floorsPath, "utf8").catch(() => "{}")) as Record<string, number>;
  if (args.includes("--record")) {
    // A floor only rises: recording after a run that lost ground keeps the floor it had.
    const raised = files.map((file) => [file.name, Math.max(floors[file.name] ?? 0, Math.min(FILE_FLOOR, Math.floor(percent(file) * 10) / 10))] as const);
    await writeFile(floorsPath, `${JSON.stringify(Object.fromEntries(raised), null, 2)}\n`);
    for (const [name, floor] of raised) floors[name] = floor;
  }
  if (!args.includes("--gate")) return;
  const low = files.filter((file) => percent(file) < (floors[file.name] ?? FILE_FLOOR));
  for (const file of low) console.error(`${file.name}: ${percent(file).toFixed(1)} % (floor ${floors[file.name] ?? FILE_FLOOR} %)`);
  const below = files.filter((file) => percent(file) < FILE_FLOOR).length;
  console.error(
    `mutation: ${percent(all).toFixed(1)} % of ${all.mutants} mutants (target ${TOTAL_TARGET} %); ${below} of ${files.length} files under ${FILE_FLOOR} %`,
  );
  if (low.length > 0) process.exitCode = 1;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
