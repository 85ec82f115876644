#!/usr/bin/env node
// Runs the compiled CLI (dist/cli/main.js, which loads the bundle
// scripts/build-cli.ts makes) when it is there and newer than every source
// file; in a development checkout whose build is missing or older than src/,
// the TypeScript sources through tsx, so a stale build never runs by mistake.
// An installed package ships dist/ only.
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const compiled = join(root, "dist", "bundle", "manifest.json");
const main = join(root, "dist", "cli", "main.js");
const sources = join(root, "src");

function newestSource() {
  let newest = 0;
  for (const name of readdirSync(sources, { recursive: true })) {
    if (name.endsWith(".ts") || name.endsWith(".json")) newest = Math.max(newest, statSync(join(sources, name)).mtimeMs);
  }
  return newest;
}

const built = existsSync(compiled) ? statSync(compiled).mtimeMs : 0;
if (built > 0 && (!existsSync(sources) || built >= newestSource())) {
  await import(pathToFileURL(main).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(join(sources, "cli", "main.ts")).href);
}
