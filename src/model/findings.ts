/** How much a finding matters: errors fail `check` (exit 2); warnings and info only inform. */
export type Severity = "error" | "warning" | "info";

/** Where a user wrote something (a values file, a policy file). */
export interface Position {
  file: string;
  line: number;
  column: number;
}

/**
 * One finding of values validation or of a policy rule: the same shape in
 * every report. Values are never in it: a values file may hold secrets.
 */
export interface Finding {
  /** A stable rule id: `values.type`, `service-selects-pods`, `removed-api`, … */
  rule: string;
  severity: Severity;
  chart: string;
  stack: string;
  /** The object it is about, as `Kind.group namespace/name`. */
  object?: string;
  /** The field: a values key (`service.port`) or an object's field (`spec.selector`). */
  path?: string;
  message: string;
  /** The field or value to change. */
  hint?: string;
  /** Where the user wrote it. */
  position?: Position;
  /** The exception that silenced it (the finding is reported, at severity info). */
  exception?: { reason: string; until?: string; file: string };
}
