// Where each report's golden files are: test/public/reports.test.ts writes
// them from real workflows, test/unit/report-goldens.test.ts prints the JSON
// one in every format and compares.
import { join } from "node:path";
import { ROOT } from "./platform.js";

export const GOLDEN = join(ROOT, "test", "golden", "reports");

/** The golden file of a report kind in one format. */
export function goldenFile(kind: string, format: string): string {
  return join(GOLDEN, `${kind}.${format === "markdown" ? "md" : format === "text" ? "txt" : format}`);
}
