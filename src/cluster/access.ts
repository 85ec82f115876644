// Whether the identity a kubeconfig names may do what a stack's deploy
// does, asked of the API server itself (SelfSubjectAccessReview, one per
// verb and name): the answer is its authorizer's, RBAC or webhook alike.
import { refusal, type Right } from "../engine/rights.js";
import { isRecord } from "../util/json.js";
import { mapLimit } from "../util/pool.js";
import type { KubeClient } from "./client.js";

export interface Identity {
  user: string;
  groups: string[];
}

export interface Missing {
  right: Right;
  verb: string;
  name?: string;
  /** As the API server words the refusal. */
  message: string;
}

const CONCURRENCY = 8;

/** Who the server takes the kubeconfig's identity for. */
export async function whoAmI(client: KubeClient): Promise<Identity> {
  const answer = await client.selfReview("SelfSubjectReview");
  const status = isRecord(answer.body) && isRecord(answer.body.status) ? answer.body.status : {};
  const info = isRecord(status.userInfo) ? status.userInfo : {};
  return {
    user: typeof info.username === "string" ? info.username : "unknown",
    groups: Array.isArray(info.groups) ? info.groups.filter((group): group is string => typeof group === "string") : [],
  };
}

/**
 * Every verb (and name) of `rights` the identity may not use. What its
 * rules in a namespace (one SelfSubjectRulesReview each) plainly allow is
 * taken as allowed; every other verb is asked on its own
 * (SelfSubjectAccessReview), the authorizer's own answer, so a rule list
 * that is incomplete (a webhook authorizer) never reports a false refusal.
 */
export async function missingRights(client: KubeClient, identity: Identity, rights: readonly Right[]): Promise<Missing[]> {
  const asks = rights.flatMap((right) => right.verbs.flatMap((verb) => (right.resourceNames ?? [undefined]).map((name) => ({ right, verb, name }))));
  const namespaces = [...new Set(rights.map((right) => right.namespace).filter((namespace) => namespace !== ""))];
  const rules = new Map(await mapLimit(namespaces, CONCURRENCY, async (namespace) => [namespace, await rulesIn(client, namespace)] as const));
  const unclear = asks.filter((ask) => !(rules.get(ask.right.namespace) ?? []).some((rule) => grants(rule, ask)));
  const answers = await mapLimit(unclear, CONCURRENCY, (ask) => allowed(client, ask));
  const refused = unclear.filter((_, index) => !answers[index]);
  // A role may be created without `escalate` by an identity that holds every right it grants.
  const covered = await mapLimit(refused, CONCURRENCY, async (ask) =>
    ask.right.heldInstead === undefined ? false : (await missingRights(client, identity, ask.right.heldInstead)).length === 0,
  );
  return refused
    .filter((_, index) => !covered[index])
    .map(({ right, verb, name }) => ({ right, verb, ...(name === undefined ? {} : { name }), message: refusal(identity.user, verb, right, name) }));
}

interface Rule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames?: string[];
}

/** The identity's resource rules in a namespace, as the server lists them (cluster-wide bindings included). */
async function rulesIn(client: KubeClient, namespace: string): Promise<Rule[]> {
  const answer = await client.selfReview("SelfSubjectRulesReview", { namespace });
  const status = isRecord(answer.body) && isRecord(answer.body.status) ? answer.body.status : {};
  const strings = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []);
  return (Array.isArray(status.resourceRules) ? status.resourceRules : []).filter(isRecord).map((rule) => ({
    verbs: strings(rule.verbs),
    apiGroups: strings(rule.apiGroups),
    resources: strings(rule.resources),
    ...(Array.isArray(rule.resourceNames) && rule.resourceNames.length > 0 ? { resourceNames: strings(rule.resourceNames) } : {}),
  }));
}

/** RBAC's own matching: `*` for any verb, group or resource; names only restrict when given. */
function grants(rule: Rule, ask: { right: Right; verb: string; name: string | undefined }): boolean {
  const has = (list: string[], value: string) => list.includes("*") || list.includes(value);
  if (!has(rule.verbs, ask.verb) || !has(rule.apiGroups, ask.right.group) || !has(rule.resources, ask.right.resource)) return false;
  return rule.resourceNames === undefined || (ask.name !== undefined && rule.resourceNames.includes(ask.name));
}

async function allowed(client: KubeClient, ask: { right: Right; verb: string; name: string | undefined }): Promise<boolean> {
  const attributes = {
    verb: ask.verb,
    group: ask.right.group,
    resource: ask.right.resource,
    ...(ask.right.namespace === "" ? {} : { namespace: ask.right.namespace }),
    ...(ask.name === undefined ? {} : { name: ask.name }),
  };
  const answer = await client.selfReview("SelfSubjectAccessReview", { resourceAttributes: attributes });
  const status = isRecord(answer.body) && isRecord(answer.body.status) ? answer.body.status : {};
  return status.allowed === true;
}
