import { describe, expect, it } from "vitest";
import { sortSchemaViolations } from "../../src/render/template.js";

describe("helm's schema violations", () => {
  it("are sorted within each run of them, whatever order helm printed them in", () => {
    const printed = [
      "Error: values don't meet the specifications of the schema(s) in the following chart(s):",
      "webapp:",
      "- at '/service/port': got string, want integer",
      "- at '/config/logLevel': value must be one of 'debug', 'info'",
      "sub:",
      "- at '/z': x",
      "- at '/a': y",
    ];
    expect(sortSchemaViolations(printed)).toStrictEqual([printed[0], "webapp:", printed[3], printed[2], "sub:", "- at '/a': y", "- at '/z': x"]);
  });
});
