// Lists the mutants of one file that no test detected, from the last mutation
// run, with the line they change: what the next test has to kill (or what to
// list as equivalent, with the reason, in the note).
//
//   tsx scripts/mutation-survivors.ts <src/file.ts> [report.json]
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";

interface Mutant {
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}

async function main(): Promise<void> {
  const [file, reportArg] = process.argv.slice(2);
  if (file === undefined || file.startsWith("-")) {
    console.error("usage: tsx scripts/mutation-survivors.ts <src/file.ts> [report.json]");
    process.exit(2);
  }
  const reportPath = resolve(reportArg ?? ".cache/stryker/mutation.json");
  const text = await readFile(reportPath, "utf8").catch(() => {
    console.error(`mutation-survivors: no report at ${reportPath}: run \`npm run test:mutation\` first`);
    process.exit(2);
  });
  const report = JSON.parse(text) as { files: Record<string, { source: string; mutants: Mutant[] }> };
  // The whole path, or its end after a slash: `objects.ts` names three files, so it is refused as ambiguous.
  const wanted = file.replace(/^\.\//, "");
  const matches = Object.entries(report.files).filter(([path]) => {
    const name = path.replace(/^.*?src\//, "src/");
    return name === wanted || name.endsWith(`/${wanted}`);
  });
  if (matches.length !== 1) {
    const found = matches.map(([path]) => path.replace(/^.*?src\//, "src/")).join(", ");
    console.error(
      matches.length === 0 ? `mutation-survivors: ${file} is not in ${reportPath}` : `mutation-survivors: ${file} names ${found}: give more of the path`,
    );
    process.exit(2);
  }
  const [, { source, mutants }] = matches[0] as [string, { source: string; mutants: Mutant[] }];
  const lines = source.split("\n");
  const open = mutants
    .filter((mutant) => mutant.status === "Survived" || mutant.status === "NoCoverage")
    .sort((a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column);
  for (const mutant of open) {
    const { start } = mutant.location;
    const code = (lines[start.line - 1] ?? "").trim();
    const replacement = (mutant.replacement ?? "").replace(/\s+/g, " ").slice(0, 80);
    const status = mutant.status === "NoCoverage" ? "no coverage" : "survived";
    console.log(`${start.line}:${start.column} ${mutant.mutatorName} (${status}) → ${replacement}\n    ${code.slice(0, 140)}`);
  }
  console.log(`${open.length} of ${mutants.length} mutants undetected`);
}

await main();
