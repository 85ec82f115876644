// The HTML review page in a real browser: Debian's chromium, driven headless
// by playwright-core (a browser download through playwright cannot work here).
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { diff, formatReport, openProject, planUpgrade, upgradeReport } from "chartroom";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { helm } from "../helpers/helm.js";
import { copyPlatform, copyPlatformTo, editFile, ROOT } from "../helpers/platform.js";

const ARTIFACTS = join(ROOT, "test", "artifacts");
// What the machine's probe found necessary: no sandbox as root, and none of
// Chromium's background calls home, which this closed network refuses.
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

let browser: Browser;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "chartroom-html-"));
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_BIN ?? "/usr/bin/chromium", args: FLAGS });
});

afterAll(async () => {
  await browser?.close();
  await rm(work, { recursive: true, force: true });
});

interface Opened {
  page: Page;
  consoleErrors: string[];
  requests: string[];
}

/** Open a report file, recording console errors and every request besides the file itself. */
async function open(file: string): Promise<Opened> {
  const page = await browser.newPage();
  const consoleErrors: string[] = [];
  const requests: string[] = [];
  const url = pathToFileURL(file).toString();
  page.on("console", (message) => void (message.type() === "error" && consoleErrors.push(message.text())));
  page.on("pageerror", (error) => void consoleErrors.push(error.message));
  page.on("request", (request) => void (request.url() !== url && requests.push(request.url())));
  await page.goto(url);
  return { page, consoleErrors, requests };
}

async function axeViolations(page: Page): Promise<{ id: string; impact: string; nodes: number }[]> {
  const source = await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  await page.addScriptTag({ content: source });
  return page.evaluate(async () => {
    const results = await (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe.run();
    return results.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
}

async function projectOf(dir: string) {
  return openProject({ dir, env: { ...process.env, CHARTROOM_CACHE: join(dir, ".cache"), HELM_BIN: await helm(4) } });
}

describe("the HTML review page of the web app's major bump", () => {
  let opened: Opened;

  beforeAll(async () => {
    const dir = await copyPlatformTo(join(work, "platform"));
    const report = await diff(await projectOf(dir), { charts: ["webapp"], to: "2.0.0" });
    const file = join(dir, "report.html");
    await writeFile(file, await formatReport(report, "html"));
    opened = await open(file);
  });

  it("loads with no console error and no network request", () => {
    expect(opened.consoleErrors).toStrictEqual([]);
    expect(opened.requests).toStrictEqual([]);
  });

  it("shows the Deployment's replacement and what helm.v4.Chart does about it", async () => {
    const deployment = opened.page.locator("section.chart[data-stack=prod] details.object.replace", { hasText: "Deployment.apps web/webapp" });
    await expect.poll(() => deployment.isVisible()).toBe(true);
    const note = deployment.getByRole("note");
    expect(await note.innerText()).toContain("Replaced for spec.selector.");
    expect(await note.innerText()).toContain("helm.v4.Chart: Pulumi replaces the object");
  });

  it("hides replaced objects when their class is unticked, and other stacks when one is picked", async () => {
    const { page } = opened;
    const replaced = page.locator("details.object.replace").first();
    await page.getByLabel("replaced").uncheck();
    expect(await replaced.isVisible()).toBe(false);
    expect(await page.locator("details.object.update").first().isVisible()).toBe(true);
    await page.getByLabel("replaced").check();
    await page.getByLabel("Stack", { exact: true }).selectOption("dev");
    expect(await page.locator("section.chart[data-stack=prod]").isVisible()).toBe(false);
    expect(await page.locator("section.chart[data-stack=dev]").isVisible()).toBe(true);
    await page.getByLabel("Stack", { exact: true }).selectOption("");
  });

  it("masks Secret values as every other format does", async () => {
    const secret = opened.page.locator("details.object", { hasText: "Secret web/webapp-auth" }).first();
    await secret.evaluate((details) => {
      (details as HTMLDetailsElement).open = true;
    });
    expect(await secret.innerText()).toMatch(/hidden, 24 → 24 bytes/);
  });

  it("lists every chart and stack in its contents, each link landing on its section, and each object has its anchor", async () => {
    const { page } = opened;
    const links = await page.locator("nav.toc a").evaluateAll((anchors) => anchors.map((a) => (a as HTMLAnchorElement).hash));
    expect(links).toStrictEqual(["#chart--webapp--dev", "#chart--webapp--prod"]);
    for (const hash of links) expect(await page.locator(`section${hash}`).count()).toBe(1);
    const anchors = await page.locator("details.object a.anchor").evaluateAll((items) => items.map((a) => (a as HTMLAnchorElement).hash));
    expect(anchors.length).toBeGreaterThan(4);
    for (const hash of anchors) expect(await page.locator(`details${hash.replace(/\./g, "\\.")}`).count()).toBe(1);
    expect(await page.locator("nav.toc").innerText()).toContain("webapp · prod 1.0.1 → 2.0.0: 3 updated, 1 replaced, 1 renamed; values contract");
  });

  it("folds each object in a <details>, open for a review this small, and shows a changed value's words marked", async () => {
    const { page } = opened;
    const service = page.locator("section.chart[data-stack=prod] details.object", { hasText: "Service web/webapp" });
    expect(await service.getAttribute("open")).toBe("");
    await service.locator("summary").click();
    expect(await service.getAttribute("open")).toBeNull();
    await service.locator("summary").click();
    expect(await service.locator("pre.diff span.del del").allInnerTexts()).toStrictEqual(["8080"]);
    expect(await service.locator("pre.diff span.add ins").allInnerTexts()).toStrictEqual(["80"]);
    // What the engine does is said once, and never against the class.
    expect(await service.locator("p.engine").innerText()).toBe("helm.v4.Chart updates it in place.");
    expect(await service.innerText()).not.toMatch(/engine: /);
  });

  it("has no accessibility violation at all (axe-core)", async () => {
    expect(await axeViolations(opened.page)).toStrictEqual([]);
  });

  it("keeps a screenshot as a test artifact", async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    const path = join(ARTIFACTS, "diff-webapp-major.png");
    await opened.page.screenshot({ path, fullPage: true });
    expect((await readFile(path)).subarray(1, 4).toString()).toBe("PNG");
  });
});

describe("the HTML review page without JavaScript", () => {
  it("reads in full: the contents and anchors work, objects open and shut, and the filters that would do nothing are not shown", async () => {
    const dir = await copyPlatformTo(join(work, "nojs"));
    const file = join(dir, "report.html");
    await writeFile(file, await formatReport(await diff(await projectOf(dir), { charts: ["webapp"], to: "2.0.0", stack: "prod" }), "html"));
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(pathToFileURL(file).toString());
    expect(await page.locator("form#filters").isVisible()).toBe(false);
    await page.locator("nav.toc a").first().click();
    expect(new URL(page.url()).hash).toBe("#chart--webapp--prod");
    const deployment = page.locator("details.object.replace", { hasText: "Deployment.apps web/webapp" });
    expect(await deployment.getByRole("note").isVisible()).toBe(true);
    await deployment.locator("summary").click();
    expect(await deployment.getByRole("note").isVisible()).toBe(false);
    await context.close();
  });
});

describe("the HTML page of an upgrade", () => {
  it("loads cleanly with the move, its replacement and no accessibility violation", async () => {
    const dir = await copyPlatform();
    await editFile(join(dir, "chartroom.config.ts"), (text) => text.replace('version: "~1.0.0"', 'version: "~1.1.0"'));
    const report = await upgradeReport(await planUpgrade(await projectOf(dir), { stack: "dev" }));
    const file = join(dir, "upgrade.html");
    await writeFile(file, await formatReport(report, "html"));
    const { page, consoleErrors, requests } = await open(file);
    expect([consoleErrors, requests]).toStrictEqual([[], []]);
    expect(await page.locator("header").innerText()).toContain("would upgrade: webapp 1.0.1 → 1.1.0");
    expect(await page.locator("details.object.replace", { hasText: "ConfigMap web/webapp-config" }).isVisible()).toBe(true);
    expect((await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical")).toStrictEqual([]);
  });
});
