// The draft-07 meta-schema's validator as ajv's standalone code, beside both
// builds (dist/values/, dist/cjs/values/), made with the options every values
// check uses: values/schema.ts loads it instead of compiling the meta-schema,
// ≈25 ms of every `check` and `deployCharts` of a chart with a schema. Made
// from the installed ajv, so it never lags it. Run after build-cjs.ts (npm run build).
import { mkdir, writeFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import standalone from "ajv/dist/standalone/index.js";
import { DRAFT_07_META, DRAFT_07_VALIDATOR, makeAjv } from "../src/values/schema.js";

const root = resolve(import.meta.dirname, "..");
const ajv = makeAjv("draft-07", true);
const validate = ajv.getSchema(DRAFT_07_META);
if (validate === undefined) throw new Error(`ajv has no ${DRAFT_07_META}`);
// A CommonJS module: its function is module.exports, and its `default` too.
const code = standalone.default(ajv, validate);
for (const dir of [join(root, "dist", "values"), join(root, "dist", "cjs", "values")]) {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, DRAFT_07_VALIDATOR), code);
  process.stdout.write(`built ${relative(root, join(dir, DRAFT_07_VALIDATOR))}: ${(code.length / 1024).toFixed(0)} KB\n`);
}
