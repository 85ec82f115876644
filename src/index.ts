// chartroom: Helm charts declared in code, pinned, upgraded and reviewed per
// object. The library does everything the CLI does: open a project, call a
// workflow, get its report as data, print it in any format it supports.
//
// Importing this file stays cheap: each workflow loads its code (helm, YAML,
// schema validation, the config loader) the first time it is called.
import type { DiffReport } from "./diff/model.js";
import type { CheckReport } from "./report/check.js";
import type { ExplainReport } from "./report/explain.js";
import type { ImagesReport } from "./report/images.js";
import type { LockReport, VerifyReport } from "./report/lock.js";
import type { OutdatedReport } from "./report/outdated.js";
import type { PlanReport } from "./report/plan.js";
import type { AnyReport, Format, FormatOptions, ReportKind } from "./report/registry.js";
import type { RenderReport } from "./report/render.js";
import type { UpgradeReport } from "./report/upgrade.js";
import type { CheckOptions } from "./workflows/check.js";
import type { DeploymentPlan } from "./workflows/deployments.js";
import type { DiffOptions } from "./workflows/diff.js";
import type { LockOptions } from "./workflows/lock.js";
import type { PlanOptions } from "./workflows/plan.js";
import type { Project, ProjectOptions } from "./project/project.js";
import type { RenderOptions } from "./workflows/render.js";
import type { UpgradeOptions, UpgradePlan } from "./workflows/upgrade.js";

export { defineConfig, definePolicy } from "./config/define.js";
export type { ExternalObject, KubernetesObject, PolicyContext, PolicyRule, RuleResult } from "./model/policy.js";
export type { Finding, Severity } from "./model/findings.js";
export type {
  Config,
  ChartSpec,
  Engine,
  RepositoryAuth,
  RepositorySpec,
  RepositoryUrl,
  StackSpec,
  WrittenChart,
  WrittenConfig,
  WrittenRepository,
  WrittenStack,
  WrittenRegistry,
  ReleaseSettings,
} from "./config/types.js";
export { ChartroomError, InternalError, formatError, CATALOGUE, exitCodeOf, type ErrorCode, type Place } from "./errors/index.js";
import { ChartroomError } from "./errors/index.js";
export { chartValues, type ChartValues, type PartialValues, type ValuesOf } from "./values/typed.js";
export { LOCKFILE_NAME, LOCKFILE_VERSION } from "./lockfile/constants.js";
export type { LockedChart, Lockfile } from "./lockfile/schema.js";
export type { EngineChoice, EngineName } from "./model/engine.js";
export type { RenderedObject, HookInfo } from "./model/objects.js";
export type { ChartReport, DiffReport, EngineStep, ObjectAction, ObjectReport, ReportedChange, ChangeTag } from "./diff/model.js";
export type { CheckReport } from "./report/check.js";
export type { ExplainReport } from "./report/explain.js";
export type { ImageRow, ImagesReport } from "./report/images.js";
export type { LockChange, LockReport, VerifyReport } from "./report/lock.js";
export type { OutdatedReport } from "./report/outdated.js";
export type { OutdatedRow, UpdateType } from "./versions/outdated.js";
export type { PlanReport, PlanRow } from "./report/plan.js";
export type { AnyReport, Format, FormatOptions, ReportKind } from "./report/registry.js";
export type { RenderReport } from "./report/render.js";
export type { UpgradeMove, UpgradeReport } from "./report/upgrade.js";
export type { TypesReport } from "./report/codegen.js";
export type { ValuesFinding } from "./values/check.js";
export type { ContractChange } from "./values/contract.js";
export type { Project, ProjectOptions } from "./project/project.js";
export type { CheckOptions } from "./workflows/check.js";
export type { DeploymentPlan } from "./workflows/deployments.js";
export type { DiffOptions } from "./workflows/diff.js";
export type { LockOptions } from "./workflows/lock.js";
export type { PlanOptions } from "./workflows/plan.js";
export type { RenderOptions } from "./workflows/render.js";
export type { UpgradeOptions, UpgradePlan } from "./workflows/upgrade.js";

/**
 * Open the platform in `options.dir` (default: the current folder): load
 * chartroom.config.ts and charts.lock.json. Every workflow takes the project.
 * @example const project = await openProject({ dir: "." });
 */
export async function openProject(options: ProjectOptions = {}): Promise<Project> {
  return (await import("./project/project.js")).openProject((await args()).checkOptions("openProject", options));
}

/** Resolve the declared ranges, fetch and verify each archive, and write charts.lock.json (only if it changed). */
export async function lock(project: Project, options: LockOptions = {}): Promise<LockReport> {
  const check = await args();
  return (await import("./workflows/lock.js")).lock(check.checkProject("lock", project), check.checkOptions("lock", options));
}

/** The lock fits every declaration and every pinned archive still verifies (`lock --frozen`). Writes nothing; throws LOCK_STALE or DIGEST_MISMATCH. */
export async function verify(project: Project): Promise<VerifyReport> {
  return (await import("./workflows/lock.js")).verify((await args()).checkProject("verify", project));
}

/** Each chart's pin against what its repository offers: current, wanted (in range), latest. */
export async function outdated(project: Project, options: { charts?: readonly string[] } = {}): Promise<OutdatedReport> {
  const check = await args();
  return (await import("./workflows/outdated.js")).outdated(check.checkProject("outdated", project), check.checkOptions("outdated", options));
}

/** Every chart's pin verified, what is newer, and what the next version does per stack. */
export async function plan(project: Project, options: PlanOptions = {}): Promise<PlanReport> {
  const check = await args();
  return (await import("./workflows/plan.js")).plan(check.checkProject("plan", project), check.checkOptions("plan", options));
}

/** One chart rendered for one stack with the platform's values, offline. */
export async function render(project: Project, options: RenderOptions): Promise<RenderReport> {
  const check = await args();
  return (await import("./workflows/render.js")).render(check.checkProject("render", project), check.checkOptions("render", options));
}

/** Per-object changes of a version move (`to`) or of the working tree against a git ref (`base`). */
export async function diff(project: Project, options: DiffOptions = {}): Promise<DiffReport> {
  const check = await args();
  return (await import("./workflows/diff.js")).diff(check.checkProject("diff", project), check.checkOptions("diff", options));
}

/** Values validated as Helm validates them, unknown keys, and values files nothing reads. */
export async function check(project: Project, options: CheckOptions = {}): Promise<CheckReport> {
  const check = await args();
  return (await import("./workflows/check.js")).check(check.checkProject("check", project), check.checkOptions("check", options));
}

/** Work out each chart's move to the highest version in range and what it does; writes nothing. */
export async function planUpgrade(project: Project, options: UpgradeOptions = {}): Promise<UpgradePlan> {
  const check = await args();
  return (await import("./workflows/upgrade.js")).planUpgrade(check.checkProject("planUpgrade", project), check.checkOptions("planUpgrade", options));
}

/** Pin exactly the versions of an upgrade plan and write charts.lock.json. */
export async function applyUpgrade(project: Project, upgrade: UpgradePlan): Promise<UpgradeReport> {
  const check = await args();
  return (await import("./workflows/upgrade.js")).applyUpgrade(
    check.checkProject("applyUpgrade", project),
    check.checkOptions("upgradePlan", upgrade, "upgrade"),
  );
}

/** The report of an upgrade plan without applying it (what `upgrade --dry-run` prints). */
export async function upgradeReport(upgrade: UpgradePlan): Promise<UpgradeReport> {
  return (await import("./workflows/upgrade.js")).upgradeReport((await args()).checkOptions("upgradePlan", upgrade, "upgrade"), false);
}

/** Every container image the charts run per stack, with the digest the lock records (reads the lock only). */
export async function images(project: Project, options: { charts?: readonly string[]; stack?: string } = {}): Promise<ImagesReport> {
  const check = await args();
  return (await import("./workflows/images.js")).images(check.checkProject("images", project), check.checkOptions("images", options));
}

/** Why a chart gets its engine, and what the lock knows about it. */
export async function explain(project: Project, options: { chart: string }): Promise<ExplainReport> {
  const check = await args();
  return (await import("./workflows/explain.js")).explain(check.checkProject("explain", project), check.checkOptions("explain", options));
}

/** What a Pulumi program deploys for a stack: one plan per chart, from the lock, never the network. */
export async function deploymentPlans(project: Project, options: { stack: string }): Promise<DeploymentPlan[]> {
  const check = await args();
  return (await import("./workflows/deployments.js")).deploymentPlans(
    check.checkProject("deploymentPlans", project),
    check.checkOptions("deploymentPlans", options),
  );
}

/** A report as text, JSON, markdown or HTML; a format the report does not support is a USAGE error. */
export async function formatReport(report: AnyReport, format: Format, options: FormatOptions = {}): Promise<string> {
  const check = await args();
  if (typeof report !== "object" || report === null || typeof (report as { report?: unknown }).report !== "string") {
    throw new ChartroomError("INVALID_ARGUMENT", "formatReport(): the first argument must be a report a workflow returned", {
      hint: 'formatReport(await diff(project), "markdown")',
    });
  }
  return (await import("./report/registry.js")).formatReport(report, format, check.checkOptions("formatReport", options));
}

/** The formats a kind of report prints in. */
export async function formatsOf(kind: ReportKind): Promise<Format[]> {
  return (await import("./report/registry.js")).formatsOf(kind);
}

/** The argument checks, loaded with the first call. */
function args(): Promise<typeof import("./project/arguments.js")> {
  return import("./project/arguments.js");
}
