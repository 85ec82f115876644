#!/usr/bin/env node
// In a development checkout (src/ present) run the TypeScript source through
// tsx, so an old dist/ never runs by mistake; an installed package ships
// only dist/.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const source = join(root, "src", "cli", "main.ts");
if (existsSync(source)) {
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(source).href);
} else {
  await import(pathToFileURL(join(root, "dist", "cli", "main.js")).href);
}
