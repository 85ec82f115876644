import { describe, expect, it } from "vitest";
import { FORMATS_OF, type ReportKind } from "../../src/report/formats.js";
import { renderedFormats } from "../../src/report/registry.js";

describe("the renderer registry", () => {
  it.each(Object.keys(FORMATS_OF) as ReportKind[])("%s: the formats --help announces are the formats with a renderer", (kind) => {
    expect(renderedFormats(kind)).toStrictEqual([...FORMATS_OF[kind]]);
  });
});
