import type { RepositorySpec } from "../config/types.js";
import { ChartroomError } from "../errors/index.js";
import { rememberCredentialPair, rememberSecret } from "../errors/secrets.js";

export type Credentials = { kind: "basic"; username: string; password: string } | { kind: "bearer"; token: string };

/**
 * Read the credentials a repository names. Values are registered for
 * redaction the moment they are read, so no later message can carry them.
 */
export function readCredentials(repository: RepositorySpec, env: NodeJS.ProcessEnv = process.env): Credentials | undefined {
  const auth = repository.auth;
  if (auth === undefined) return undefined;
  if (auth.tokenEnv !== undefined) return { kind: "bearer", token: readVar(repository, "tokenEnv", auth.tokenEnv, env) };
  if (auth.usernameEnv !== undefined && auth.passwordEnv !== undefined) {
    const username = readVar(repository, "usernameEnv", auth.usernameEnv, env);
    const password = readVar(repository, "passwordEnv", auth.passwordEnv, env);
    return { kind: "basic", username, password };
  }
  return undefined;
}

function readVar(repository: RepositorySpec, key: string, name: string, env: NodeJS.ProcessEnv): string {
  const value = env[name];
  if (value === undefined || value === "") {
    throw new ChartroomError("HTTP_AUTH", `environment variable ${name} is not set`, {
      place: { key: `${declaredAt(repository)}.auth.${key}` },
      hint: `export ${name} before running chartroom (the config names it for ${repository.url})`,
    });
  }
  rememberSecret(value);
  return value;
}

export function authorizationHeader(credentials: Credentials | undefined): Record<string, string> {
  if (credentials === undefined) return {};
  if (credentials.kind === "bearer") return { authorization: `Bearer ${credentials.token}` };
  const encoded = Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64");
  rememberCredentialPair(credentials.username, credentials.password);
  return { authorization: `Basic ${encoded}` };
}

/** The hint for a 401/403: which variables to check, never their values. */
export function authHint(repository: RepositorySpec): string {
  const auth = repository.auth;
  if (auth === undefined)
    return `the ${repository.declaredAt === undefined ? "repository" : "registry"} wants credentials: add auth to ${declaredAt(repository)} naming environment variables`;
  const names = [auth.tokenEnv, auth.usernameEnv, auth.passwordEnv].filter((name) => name !== undefined);
  return `check the credentials in ${names.join(", ")} (named by ${declaredAt(repository)}.auth)`;
}

function declaredAt(repository: RepositorySpec): string {
  return repository.declaredAt ?? `repositories.${repository.name}`;
}
