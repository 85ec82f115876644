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

/** Every verb (and name) of `rights` the identity may not use. */
export async function missingRights(client: KubeClient, identity: Identity, rights: readonly Right[]): Promise<Missing[]> {
  const asks = rights.flatMap((right) => right.verbs.flatMap((verb) => (right.resourceNames ?? [undefined]).map((name) => ({ right, verb, name }))));
  const answers = await mapLimit(asks, CONCURRENCY, (ask) => allowed(client, ask));
  const refused = asks.filter((_, index) => !answers[index]);
  // A role may be created without `escalate` by an identity that holds every right it grants.
  const covered = await mapLimit(refused, CONCURRENCY, async (ask) =>
    ask.right.heldInstead === undefined ? false : (await missingRights(client, identity, ask.right.heldInstead)).length === 0,
  );
  return refused
    .filter((_, index) => !covered[index])
    .map(({ right, verb, name }) => ({ right, verb, ...(name === undefined ? {} : { name }), message: refusal(identity.user, verb, right, name) }));
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
