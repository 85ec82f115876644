import { isMap, isNode, isPair, isSeq, LineCounter, parseDocument } from "yaml";
import * as z from "../util/zod.js";
import { ChartroomError } from "../errors/index.js";
import type { Severity } from "../model/findings.js";
import type { ExternalObject } from "../model/policy.js";

// policies/*.yaml: each rule's severity (per stack if needed), exceptions
// with their reasons, and objects that exist outside the platform.

const notASeverity = (input: unknown) => `"${String(input)}" is not a severity: error, warning, info or off`;
const severity = z.enum(["error", "warning", "info", "off"], { error: (issue) => notASeverity(issue.input) });

const ruleSetting = z.union([severity, z.strictObject({ severity: z.optional(severity), stacks: z.optional(z.record(z.string(), severity)) })], {
  error: (issue) => (typeof issue.input === "string" ? notASeverity(issue.input) : "expected a severity, or { severity, stacks: { <stack>: severity } }"),
});

const exceptionSchema = z.strictObject({
  rule: z.string({ error: "required: the rule id it silences" }),
  chart: z.string({ error: "required: the chart key it applies to" }),
  /** `Kind.group namespace/name`, as chartroom names objects. */
  object: z.optional(z.string()),
  stack: z.optional(z.string()),
  reason: z
    .string({ error: "required: why this is acceptable (it is shown with every finding it silences)" })
    .check(z.minLength(1, "required: why this is acceptable")),
  /** YYYY-MM-DD; past it, the exception is an error. */
  until: z.optional(
    z.union([
      z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, "expected a date YYYY-MM-DD")),
      z.pipe(
        z.date(),
        z.transform((date: Date) => date.toISOString().slice(0, 10)),
      ),
    ]),
  ),
});

const externalSchema = z.strictObject({ kind: z.string(), name: z.string(), namespace: z.optional(z.string()) });

export const policyFileSchema = z.strictObject({
  rules: z.optional(z.record(z.string(), ruleSetting)),
  exceptions: z.optional(z.array(exceptionSchema)),
  external: z.optional(z.array(externalSchema)),
});

/** Where a policy file sets something: its line and column. */
export interface SettingPlace {
  file: string;
  line: number;
  column: number;
}

export type PolicyException = z.output<typeof exceptionSchema> & SettingPlace;

/** Every policy file of the platform, together. */
export interface PolicySettings {
  /** Rule id → its severity, and per stack. */
  severities: Map<string, { severity?: Severity | "off"; stacks: Record<string, Severity | "off">; place: SettingPlace }>;
  exceptions: PolicyException[];
  external: ExternalObject[];
}

export function emptySettings(): PolicySettings {
  return { severities: new Map(), exceptions: [], external: [] };
}

/** Read one policy file into the settings (a rule set twice: the later file wins). */
export function addPolicyFile(settings: PolicySettings, file: string, text: string): void {
  const counter = new LineCounter();
  const document = parseDocument(text, { lineCounter: counter });
  const error = document.errors[0];
  if (error !== undefined) {
    const at = counter.linePos(error.pos[0]);
    throw new ChartroomError("POLICY_INVALID", `${file} is not valid YAML: ${error.message.split("\n")[0]}`, {
      place: { file, line: at.line, column: at.col },
      hint: "fix the YAML syntax of the policy file",
    });
  }
  const parsed = policyFileSchema.safeParse(document.toJS() ?? {});
  if (!parsed.success) {
    throw new ChartroomError("POLICY_INVALID", `${file} is not a policy file`, {
      place: { file },
      details: parsed.error.issues.map(
        (issue) =>
          `${issue.path.join(".") || "(top)"}: ${issue.code === "unrecognized_keys" ? `unknown key ${issue.keys.join(", ")}; allowed: rules, exceptions, external` : issue.message}`,
      ),
      hint: "a policy file holds rules (severities), exceptions (with reasons) and external objects",
    });
  }
  const places = (key: string) => {
    const node = isMap(document.contents) ? document.get(key, true) : undefined;
    const items = isMap(node) || isSeq(node) ? node.items : [];
    return items.map((item) => {
      const range = isPair(item) && isNode(item.key) ? item.key.range : isNode(item) ? item.range : undefined;
      const at = counter.linePos(range?.[0] ?? 0);
      return { file, line: at.line, column: at.col };
    });
  };
  const rulePlaces = places("rules");
  for (const [i, [rule, setting]] of Object.entries(parsed.data.rules ?? {}).entries()) {
    const place = rulePlaces[i] ?? { file, line: 1, column: 1 };
    settings.severities.set(
      rule,
      typeof setting === "string" ? { severity: setting, stacks: {}, place } : { severity: setting.severity, stacks: setting.stacks ?? {}, place },
    );
  }
  const exceptionPlaces = places("exceptions");
  for (const [i, exception] of (parsed.data.exceptions ?? []).entries())
    settings.exceptions.push({ ...exception, ...(exceptionPlaces[i] ?? { file, line: 1, column: 1 }) });
  settings.external.push(...(parsed.data.external ?? []));
}
