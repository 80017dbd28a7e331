/**
 * Authentication of the workspace example: `Authorization: Bearer <JWT>`, HS256 signed with the
 * secret of the `JWT_SECRET` environment variable (default {@linkcode DEV_SECRET}, for
 * development only: under `NODE_ENV=production` a missing `JWT_SECRET` stops the server from
 * starting), its `sub` the user's username. No header: anonymous. A bad header or token
 * (malformed, wrong signature, another algorithm, expired or without `exp`, no `sub`): HTTP 401.
 * Tokens are verified with `jose`.
 *
 * @module
 */
import { createGraphQLError } from "graphql-yoga";
import { jwtVerify, SignJWT } from "jose";
import type { GraphQLError } from "graphql";

/** The development default of `JWT_SECRET`: never use it in production. */
export const DEV_SECRET = "mikrogql-workspace-dev-secret";

/**
 * The signing secret: `JWT_SECRET` of `env` (default: the process's), else
 * {@linkcode DEV_SECRET} outside production.
 *
 * @throws Error under `NODE_ENV=production` without `JWT_SECRET` (or with the development one)
 */
export function jwtSecret(env: Pick<Deno.Env, "get"> = Deno.env): Uint8Array {
  const secret = env.get("JWT_SECRET");
  if (env.get("NODE_ENV") === "production" && (!secret || secret === DEV_SECRET)) {
    throw new Error(
      "JWT_SECRET must be set under NODE_ENV=production: the development secret is public",
    );
  }
  return new TextEncoder().encode(secret ?? DEV_SECRET);
}

/** The 401 answer of a request whose credentials are refused. */
function unauthorized(message: string): GraphQLError {
  return createGraphQLError(message, {
    extensions: {
      code: "UNAUTHENTICATED",
      http: { status: 401, headers: { "www-authenticate": 'Bearer error="invalid_token"' } },
    },
  });
}

/**
 * The viewer of `request`: the username its bearer token names, `undefined` without an
 * `Authorization` header.
 *
 * @throws GraphQLError (HTTP 401) for a header that is not `Bearer <token>` or a token that does
 *   not verify (signature, algorithm other than HS256, expiry, missing `exp` or `sub`)
 */
export async function viewerOf(
  request: Request,
  secret: Uint8Array = jwtSecret(),
): Promise<string | undefined> {
  const header = request.headers.get("authorization");
  if (header === null) return undefined;
  const token = /^Bearer ([\w-]+\.[\w-]+\.[\w-]+)$/.exec(header)?.[1];
  if (!token) throw unauthorized("the Authorization header must be 'Bearer <JWT>'");
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ["HS256"],
      requiredClaims: ["exp", "sub"],
    });
    if (typeof payload.sub !== "string" || payload.sub === "") throw new Error("no sub");
    return payload.sub;
  } catch {
    throw unauthorized("invalid token");
  }
}

/**
 * A token for `username` (HS256, valid for `expiresIn`), as a sign-in endpoint would issue it.
 *
 * @param expiresIn a `jose` time span, e.g. `"1h"`
 */
export async function signToken(
  username: string,
  secret: Uint8Array = jwtSecret(),
  expiresIn = "1h",
): Promise<string> {
  return await new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(username)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(secret);
}
