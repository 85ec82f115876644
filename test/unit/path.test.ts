import { expect, it } from "vitest";
import { formatPath, parsePath } from "../../src/util/tree-path.js";
it.each(["data.password", 'metadata.labels["helm.sh/chart"]', "spec.template.spec.containers[name=api].image", "args[0]", 'a["x.y"].b[2]'])(
  "reads back what formatPath wrote: %s",
  (text) => {
    expect(formatPath(parsePath(text))).toBe(text);
  },
);
