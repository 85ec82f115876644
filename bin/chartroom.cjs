#!/usr/bin/env node
// Runs the compiled CLI (dist/cli/main.cjs, which loads the bundle
// scripts/build-cli.ts makes) when it is there and newer than every source
// file; in a development checkout whose build is missing or older than src/,
// the TypeScript sources through tsx, so a stale build never runs by mistake.
// An installed package ships dist/ only. CommonJS, as the compiled entry is:
// a run starts without Node's ES module loader.
const { existsSync, readdirSync, statSync } = require("node:fs");
const { join } = require("node:path");
const { pathToFileURL } = require("node:url");

const root = join(__dirname, "..");
const compiled = join(root, "dist", "bundle", "manifest.json");
const sources = join(root, "src");

function newestSource() {
  let newest = 0;
  for (const name of readdirSync(sources, { recursive: true })) {
    if (name.endsWith(".ts") || name.endsWith(".json")) newest = Math.max(newest, statSync(join(sources, name)).mtimeMs);
  }
  return newest;
}

const built = existsSync(compiled) ? statSync(compiled).mtimeMs : 0;
if (built > 0 && (!existsSync(sources) || built >= newestSource())) require(join(root, "dist", "cli", "main.cjs"));
else
  import("tsx/esm/api").then(({ register }) => {
    register();
    return import(pathToFileURL(join(sources, "cli", "main.ts")).href);
  });
