import * as pulumi from "@pulumi/pulumi";
import { formsOf, rememberSecret } from "../../errors/secrets.js";
import { isPlainObject } from "../../util/json.js";

// A secret given in code may land anywhere a chart puts it: a Secret, but
// also an annotation, an env value, a ConfigMap. The provider keeps a
// Secret's data secret in Pulumi's state; anything else it stores in plain
// text. So each helm.v4.Chart child is searched for the secret values (as
// they are, and base64-encoded) and every field holding one is made a Pulumi
// secret, with a warning that names the object and the field.

const MIN_LENGTH = 4;

/** The plain text of every secret Output (or secret Promise result) in the code values, once resolved. */
export async function secretTexts(value: unknown): Promise<string[]> {
  if (pulumi.Output.isInstance(value)) {
    const output = value as unknown as { isSecret: Promise<boolean>; promise(): Promise<unknown> };
    const [secret, resolved] = await Promise.all([output.isSecret, output.promise()]);
    return secret ? leaves(resolved) : secretTexts(resolved);
  }
  if (typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function") return secretTexts(await value);
  const children = isPlainObject(value) ? Object.values(value) : Array.isArray(value) ? value : [];
  return (await Promise.all(children.map(secretTexts))).flat();
}

function leaves(value: unknown): string[] {
  if (typeof value === "string" || typeof value === "number") return String(value).length >= MIN_LENGTH ? [String(value)] : [];
  if (isPlainObject(value)) return Object.values(value).flatMap(leaves);
  if (Array.isArray(value)) return value.flatMap(leaves);
  return [];
}

/**
 * Whether a text holds a secret in any form a template can give it: as it
 * is, JSON-, HTML- or YAML-escaped, URL-encoded, upper- or lower-cased, one
 * line of a multi-line secret (indented), or inside base64 (`b64enc` of
 * "user:secret", of a JSON document holding it…).
 */
export function holdsSecret(text: string, needles: readonly string[]): boolean {
  const lower = text.toLowerCase();
  if (needles.some((needle) => lower.includes(needle))) return true;
  for (const run of text.match(/[A-Za-z0-9+/_-]{8,}={0,2}/g) ?? []) {
    const decoded = Buffer.from(run, run.includes("-") || run.includes("_") ? "base64url" : "base64")
      .toString("utf8")
      .toLowerCase();
    if (needles.some((needle) => decoded.includes(needle))) return true;
  }
  return false;
}

/** The forms of each secret to look for, lower-cased (a template may upper- or lower-case it). */
export function needlesOf(secrets: readonly string[]): string[] {
  return [
    ...new Set(
      secrets
        .flatMap((secret) => formsOf(secret))
        .map((form) => form.toLowerCase())
        .filter((form) => form.length >= MIN_LENGTH),
    ),
  ];
}

/** Where in an object's props a secret appears, as dotted paths, with the props that keep those fields secret. */
export function protectSecrets(props: Record<string, unknown>, secrets: readonly string[]): { props: Record<string, unknown>; paths: string[] } {
  const needles = needlesOf(secrets);
  const paths: string[] = [];
  const walk = (node: unknown, path: string[]): unknown => {
    if (typeof node === "string") {
      if (!holdsSecret(node, needles)) return node;
      paths.push(path.join("."));
      return pulumi.secret(node);
    }
    if (isPlainObject(node)) return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, walk(item, [...path, key])]));
    if (Array.isArray(node)) return node.map((item, i) => walk(item, [...path, String(i)]));
    return node;
  };
  const out = walk(props, []) as Record<string, unknown>;
  return { props: out, paths };
}

/**
 * A `transforms` entry for helm.v4.Chart: each child not a Secret has the
 * fields that hold a secret given in code made secret, and a warning on the
 * chart's component says where. Secrets themselves the provider keeps secret.
 */
export function keepSecretsSecret(secrets: Promise<string[]>, component: pulumi.Resource): pulumi.ResourceTransform {
  return async (args) => {
    if (!args.custom || args.type === "kubernetes:core/v1:Secret") return undefined;
    const known = await secrets;
    if (known.length === 0) return undefined;
    for (const secret of known) rememberSecret(secret);
    const { props, paths } = protectSecrets(args.props, known);
    if (paths.length === 0) return undefined;
    await pulumi.log.warn(
      `${args.name} puts a secret given in code outside a Secret (${paths.join(", ")}): those fields are kept secret in Pulumi's state, but the object itself stores them in the clear in the cluster`,
      component,
    );
    // The provider echoes the object in its outputs (and its inputs under __inputs): those are kept secret too.
    const outputs = [...new Set([...paths.map((path) => path.split(".")[0] as string), "__inputs"])];
    return { props, opts: pulumi.mergeOptions(args.opts, { additionalSecretOutputs: outputs }) };
  };
}
