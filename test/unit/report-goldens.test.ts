// The report formatters as pure functions: each golden JSON report (written by
// test/public/reports.test.ts from real workflows on the example platform)
// prints in every other format exactly as its golden file says. Here without
// helm or a platform, so mutation testing can run it against src/report/.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatReport, formatsOf } from "../../src/report/registry.js";
import type { AnyReport } from "../../src/report/registry.js";
import { ROOT } from "../helpers/platform.js";

const GOLDEN = join(ROOT, "test", "golden", "reports");
const KINDS = ["lock", "verify", "outdated", "plan", "render", "diff", "check", "upgrade", "explain", "images", "types"];
const file = (format: string) => (format === "markdown" ? "md" : format === "text" ? "txt" : format);

describe("report formats from the golden JSON", () => {
  it.each(KINDS)("%s prints in each format as its golden file", async (kind) => {
    const report = JSON.parse(await readFile(join(GOLDEN, `${kind}.json`), "utf8")) as AnyReport;
    for (const format of await formatsOf(report.report)) {
      if (format === "yaml") continue;
      const text = await formatReport(report, format, { cwd: "<platform>" });
      expect(text, `${kind} as ${format}`).toBe(await readFile(join(GOLDEN, `${kind}.${file(format)}`), "utf8"));
    }
  });
});
