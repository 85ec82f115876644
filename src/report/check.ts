import { dump } from "js-yaml";
import type { Right } from "../engine/rights.js";
import { ChartroomError } from "../errors/index.js";
import type { Finding } from "../model/findings.js";
import type { Paint } from "./paint.js";
import { markdownTable } from "./tables.js";

/** `chartroom check`: every chart's values for every stack against its pinned version's contract. */
export interface CheckReport {
  report: "check";
  format: 1;
  /** Chart/stack pairs checked. */
  checked: number;
  /** Values findings and policy findings, silenced ones included (severity info, with their exception). */
  findings: Finding[];
  /** True when any finding is an error: the exit code is 2. */
  failed: boolean;
  /** With `--cluster`: what the stack's deploy needs of the cluster, and what its identity lacks. */
  rights?: RightsSection;
}

/** `check --cluster`: the rights the deploy needs, per kind and namespace, asked of the API server for the kubeconfig's identity. */
export interface RightsSection {
  stack: string;
  server: string;
  context: string;
  /** The identity, as the server names it (SelfSubjectReview). */
  user: string;
  rights: Right[];
  /** Each verb (and name) the identity may not use; each is also an error finding. */
  missing: { group: string; resource: string; namespace: string; verb: string; name?: string; message: string }[];
  /** The least-privilege Role per namespace and ClusterRole that grant `rights`, bound to the identity (`--format yaml`). */
  manifest: object[];
  /** Requests sent to the API server. */
  requests: number;
  /** Objects of a kind the cluster does not serve and no CRD of the stack adds (their rights are unknown). */
  unserved?: string[];
}

/** A file position, else the object; a values finding with neither is about a chart default; a chart-wide finding has none. */
function where(found: Finding): string {
  // Line 0: a place with no lines, such as a --set flag.
  if (found.position !== undefined)
    return found.position.line === 0 ? found.position.file : `${found.position.file}:${found.position.line}:${found.position.column}`;
  return found.object ?? (found.path !== undefined ? "(chart default)" : "");
}

/** The field; nothing when the finding is about a whole file already named as its place. */
function subject(found: Finding): string {
  return found.path === undefined || found.path === found.position?.file ? "" : found.path;
}

function summary(report: CheckReport): string {
  const count = (severity: Finding["severity"]) => report.findings.filter((found) => found.severity === severity).length;
  return `${count("error")} error(s), ${count("warning")} warning(s), ${count("info")} note(s) in ${report.checked} chart/stack pair(s)`;
}

export function checkText(report: CheckReport, paint: Paint): string {
  const lines = report.findings.map((found) => {
    const colour = found.severity === "error" ? "red" : found.severity === "warning" ? "yellow" : "dim";
    const field = subject(found) === "" ? "" : ` ${paint(subject(found), "bold")}`;
    const head = `${[paint(found.severity, colour), where(found), found.chart].filter((part) => part !== "").join(" ")} [${found.stack}]${field}: ${found.message} (${found.rule})`;
    const more = [
      ...(found.hint === undefined || found.exception !== undefined ? [] : [`  hint: ${found.hint}`]),
      ...(found.exception === undefined
        ? []
        : [
            `  excepted in ${found.exception.file}: ${found.exception.reason}${found.exception.until === undefined ? "" : ` (until ${found.exception.until})`}`,
          ]),
    ];
    return [head, ...more].join("\n");
  });
  return [...lines, ...(report.rights === undefined ? [] : [rightsLine(report.rights)]), summary(report)].join("\n");
}

function rightsLine(rights: RightsSection): string {
  const verbs = rights.rights.reduce((count, right) => count + right.verbs.length * (right.resourceNames?.length ?? 1), 0);
  const unserved = rights.unserved === undefined ? "" : `; rights unknown for ${rights.unserved.length} object(s) of a kind the cluster does not serve`;
  return `deploy rights of ${rights.user} at ${rights.server} (context ${rights.context}): ${verbs} needed, ${rights.missing.length} missing${unserved}`;
}

/** `check --cluster --format yaml`: the Role and ClusterRole (with bindings) the deploy needs. */
export function checkYaml(report: CheckReport): string {
  if (report.rights === undefined) {
    throw new ChartroomError("USAGE", "check prints as yaml only with --cluster: the YAML is the Role the deploy needs there", {
      hint: "chartroom check --stack <name> --cluster --kubeconfig <file> --format yaml",
    });
  }
  const { stack, server, user } = report.rights;
  const head = `# What deploying stack ${stack} needs at ${server}, granted to ${user}: written by chartroom check --cluster.\n`;
  return head + report.rights.manifest.map((document) => `---\n${dump(document, { lineWidth: -1, noRefs: true })}`).join("");
}

export function checkMarkdown(report: CheckReport): string {
  const rows = report.findings.map((found) => [
    found.severity,
    found.chart,
    found.stack,
    subject(found),
    found.rule,
    found.message,
    found.exception === undefined ? (found.hint ?? "") : `excepted: ${found.exception.reason}`,
    where(found),
  ]);
  return rows.length === 0
    ? summary(report)
    : `${summary(report)}\n\n${markdownTable(["severity", "chart", "stack", "field", "rule", "problem", "hint", "where"], rows)}`;
}
