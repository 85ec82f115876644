import { definePolicy } from "chartroom";

// A platform rule of our own: every object has a namespace of its own chart.
export default definePolicy({
  id: "not-in-default-namespace",
  description: "No platform object lands in the default namespace.",
  severity: "error",
  check(objects) {
    return objects
      .filter((object) => object.namespace === "default")
      .map((object) => ({ object, path: "metadata.namespace", message: "lands in the default namespace", hint: "set the chart's namespace in chartroom.config.ts" }));
  },
});
