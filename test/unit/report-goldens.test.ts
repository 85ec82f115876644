// The report formatters as pure functions: each golden JSON report (written by
// test/public/reports.test.ts from real workflows on the example platform)
// prints in every other format exactly as its golden file says. Here without
// helm or a platform, so mutation testing can run it against src/report/.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { FORMATS_OF } from "../../src/report/formats.js";
import { formatReport, formatsOf } from "../../src/report/registry.js";
import type { AnyReport } from "../../src/report/registry.js";
import { goldenFile } from "../helpers/goldens.js";

// Every kind of report (test/public/reports.test.ts writes a golden JSON for each).
const KINDS = Object.keys(FORMATS_OF);

describe("report formats from the golden JSON", () => {
  it.each(KINDS)("%s prints in each format as its golden file", async (kind) => {
    const report = JSON.parse(await readFile(goldenFile(kind, "json"), "utf8")) as AnyReport;
    for (const format of await formatsOf(report.report)) {
      if (format === "yaml") continue;
      const text = await formatReport(report, format, { cwd: "<platform>" });
      expect(text, `${kind} as ${format}`).toBe(await readFile(goldenFile(kind, format), "utf8"));
    }
  });
});
