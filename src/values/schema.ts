import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv";
import { Ajv } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import AjvDraft04 from "ajv-draft-04";
import addFormats from "ajv-formats";
import { sha256Digest } from "../util/hash.js";
import { isRecord } from "../util/json.js";
import { re2Engine } from "../util/re2.js";
import { installedFile } from "../util/installed.js";
import { forMetaCheck, guardSchema, type SchemaProblem } from "./schema-guard.js";

// Required, not imported: Node 20 warns on every JSON module import.
const draft06 = createRequire(import.meta.url)("ajv/dist/refs/json-schema-draft-06.json") as Record<string, unknown>;

export type Dialect = "draft-04" | "draft-06" | "draft-07" | "2019-09" | "2020-12";

/** The dialect a schema declares with `$schema`; Helm reads a schema without one as draft-07. */
export function dialectOf(schema: unknown): Dialect {
  const declared = isRecord(schema) && typeof schema.$schema === "string" ? schema.$schema : "";
  if (declared.includes("draft-04")) return "draft-04";
  if (declared.includes("draft-06")) return "draft-06";
  if (declared.includes("2019-09")) return "2019-09";
  if (declared.includes("2020-12")) return "2020-12";
  return "draft-07";
}

type AjvLike = { compile(schema: object): ValidateFunction; validateSchema(schema: object): boolean | Promise<unknown>; errors?: ErrorObject[] | null };

/** An ajv for `dialect` with the options every check uses; `source` keeps each validator's code (for the build's standalone meta-schema validator). */
export function makeAjv(dialect: Dialect, source = false): AjvLike & Ajv {
  // Charts' schemas are often loose; strict mode would refuse many that Helm accepts.
  // Patterns run with RE2's semantics, as Helm's Go regexp runs them (linear time);
  // long enums and required lists are checked in a loop, not as one huge expression
  // (a 300,000-value enum otherwise takes minutes to compile).
  // The meta-schema check runs apart, on a copy whose long enums are cut (see forMetaCheck).
  const options = {
    allErrors: true,
    strict: false,
    validateFormats: true,
    verbose: true,
    loopEnum: 32,
    loopRequired: 32,
    validateSchema: false,
    code: { regExp: re2Engine, ...(source ? { source: true } : {}) },
  };
  const ajv =
    dialect === "draft-04"
      ? new (AjvDraft04 as unknown as typeof Ajv)(options)
      : dialect === "2019-09"
        ? new Ajv2019(options)
        : dialect === "2020-12"
          ? new Ajv2020(options)
          : new Ajv(options);
  if (dialect === "draft-06") ajv.addMetaSchema(draft06);
  (addFormats as unknown as (ajv: unknown) => void)(ajv);
  return ajv as Ajv;
}

/** The meta-schema Helm reads a schema without `$schema` against (and ajv's default). */
export const DRAFT_07_META = "http://json-schema.org/draft-07/schema";
/** Its validator as ajv's standalone code, beside the compiled modules (scripts/build-meta-schema.ts). */
export const DRAFT_07_VALIDATOR = "meta-schema-draft-07.cjs";

// Compiling the draft-07 meta-schema costs a run ≈25 ms, loading its standalone
// validator ≈3. From sources, or a build without it, it is compiled as before.
let draft07: ValidateFunction | null | undefined;
function draft07Validator(): ValidateFunction | null {
  if (draft07 === undefined) {
    try {
      draft07 = createRequire(import.meta.url)(installedFile("values", DRAFT_07_VALIDATOR)) as ValidateFunction;
    } catch {
      draft07 = null;
    }
  }
  return draft07;
}

/** The meta-schema ajv would check `schema` against is draft-07's: the dialect's default, or named by `$schema` (as `metaNamed` writes it). */
function checkedByDraft07(dialect: Dialect, schema: Record<string, unknown>): boolean {
  const declared = schema.$schema;
  return dialect === "draft-07" && (declared === undefined || declared === "" || declared === DRAFT_07_META);
}

/** Each dialect's meta-schema as ajv names it. */
const META_IDS: Record<Dialect, string> = {
  "draft-04": "http://json-schema.org/draft-04/schema",
  "draft-06": "http://json-schema.org/draft-06/schema",
  "draft-07": DRAFT_07_META,
  "2019-09": "https://json-schema.org/draft/2019-09/schema",
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
};

/**
 * The schema with its `$schema` as ajv names the dialect read from it. Helm
 * takes other spellings (https for the drafts, with or without `#`: vault's
 * chart writes `https://json-schema.org/draft-07/schema#`), and Helm 3 reads
 * a URL it does not know as draft-07; ajv knows only its own names, and
 * throws on any other.
 */
function metaNamed(schema: Record<string, unknown>, dialect: Dialect): Record<string, unknown> {
  return typeof schema.$schema === "string" && schema.$schema !== "" ? { ...schema, $schema: META_IDS[dialect] } : schema;
}

/** A schema ready to validate with: what it would not follow or run taken out, and listed. */
export interface PreparedSchema {
  validate: ValidateFunction;
  problems: SchemaProblem[];
}

/** Compiled validators, one per schema digest for the life of the process. */
export class SchemaCache {
  private readonly instances = new Map<Dialect, AjvLike>();
  private readonly compiled = new Map<string, PreparedSchema>();
  compilations = 0;
  /** Meta-schema checks made through ajv's own compiled meta-schema (none for draft-07 when the build made its validator). */
  metaCompilations = 0;

  /** The schema guarded (schema-guard.ts) and compiled once per digest. */
  prepare(schema: unknown, digest = sha256Digest(JSON.stringify(schema))): PreparedSchema {
    let hit = this.compiled.get(digest);
    if (hit === undefined) {
      const dialect = dialectOf(schema);
      let ajv = this.instances.get(dialect);
      if (ajv === undefined) {
        ajv = makeAjv(dialect);
        this.instances.set(dialect, ajv);
      }
      const guarded = guardSchema(schema);
      const { $id: _id, ...rest } = (isRecord(guarded.schema) ? guarded.schema : {}) as Record<string, unknown>;
      hit = this.compileChecked(ajv, dialect, metaNamed(rest, dialect), guarded.problems);
      this.compilations++;
      this.compiled.set(digest, hit);
    }
    return hit;
  }

  validator(schema: unknown, digest?: string): ValidateFunction {
    return this.prepare(schema, digest).validate;
  }

  /** Helm refuses a chart whose schema breaks the meta-schema; here that is a finding, and nothing is validated against it. */
  private compileChecked(ajv: AjvLike, dialect: Dialect, schema: Record<string, unknown>, problems: SchemaProblem[]): PreparedSchema {
    const meta = forMetaCheck(schema);
    const all = [...problems, ...meta.problems];
    const refuse = (reason: string, pointer = "#"): PreparedSchema => ({
      validate: acceptAll,
      problems: [...all, { pointer, kind: "invalid", value: "", reason }],
    });
    if (meta.problems.length > 0) return { validate: acceptAll, problems: all };
    const checked = isRecord(meta.schema) ? meta.schema : {};
    const prebuilt = checkedByDraft07(dialect, checked) ? draft07Validator() : null;
    if (prebuilt === null) this.metaCompilations++;
    let valid: unknown;
    try {
      valid = prebuilt === null ? ajv.validateSchema(checked) : prebuilt(checked);
    } catch (error) {
      // ajv throws, where Helm refuses the chart, for a `$schema` that is not text.
      return refuse(`it breaks the JSON schema meta-schema: ${(error as Error).message.split("\n")[0]}`);
    }
    if (valid !== true) {
      const first = (prebuilt === null ? ajv.errors : prebuilt.errors)?.[0];
      return refuse(
        `it breaks the JSON schema meta-schema: ${first?.instancePath || "(top)"} ${first?.message ?? "is not valid"}`,
        `#${first?.instancePath ?? ""}`,
      );
    }
    try {
      return { validate: ajv.compile(schema), problems: all };
    } catch (error) {
      return refuse(`it cannot be compiled: ${(error as Error).message.split("\n")[0]}`);
    }
  }
}

export type SchemaError = ErrorObject;

const acceptAll = Object.assign(() => true, { errors: null }) as unknown as ValidateFunction;
