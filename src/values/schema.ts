import type { ErrorObject, ValidateFunction } from "ajv";
import { Ajv } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import draft06 from "ajv/dist/refs/json-schema-draft-06.json" with { type: "json" };
import AjvDraft04 from "ajv-draft-04";
import addFormats from "ajv-formats";
import { sha256Digest } from "../util/hash.js";
import { isRecord } from "../util/json.js";

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

type AjvLike = { compile(schema: object): ValidateFunction };

function makeAjv(dialect: Dialect): AjvLike {
  // Charts' schemas are often loose; strict mode would refuse many that Helm accepts.
  const options = { allErrors: true, strict: false, validateFormats: true, verbose: true };
  const ajv =
    dialect === "draft-04" ? new (AjvDraft04 as unknown as typeof Ajv)(options)
    : dialect === "2019-09" ? new Ajv2019(options)
    : dialect === "2020-12" ? new Ajv2020(options)
    : new Ajv(options);
  if (dialect === "draft-06") ajv.addMetaSchema(draft06);
  (addFormats as unknown as (ajv: unknown) => void)(ajv);
  return ajv;
}

/** Compiled validators, one per schema digest for the life of the process. */
export class SchemaCache {
  private readonly instances = new Map<Dialect, AjvLike>();
  private readonly compiled = new Map<string, ValidateFunction>();
  compilations = 0;

  validator(schema: unknown, digest = sha256Digest(JSON.stringify(schema))): ValidateFunction {
    let hit = this.compiled.get(digest);
    if (hit === undefined) {
      const dialect = dialectOf(schema);
      let ajv = this.instances.get(dialect);
      if (ajv === undefined) {
        ajv = makeAjv(dialect);
        this.instances.set(dialect, ajv);
      }
      const { $id: _id, ...rest } = schema as Record<string, unknown>;
      hit = ajv.compile(rest);
      this.compilations++;
      this.compiled.set(digest, hit);
    }
    return hit;
  }
}

export type SchemaError = ErrorObject;
