// Rebuilds charts/ (the example platform's local repository) from
// fixtures/charts/. Same sources, same bytes: the archives' digests are
// pinned in charts.lock.json, so this must be reproducible.
import { resolve } from "node:path";
import { buildFixtureRepository } from "./fixtures.js";

const out = resolve(import.meta.dirname, "..", "charts");
const files = await buildFixtureRepository(out);
process.stdout.write(`wrote ${files.length} archives and index.yaml to ${out}\n`);
