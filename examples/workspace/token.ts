/**
 * Prints a development token for a username (HS256 with `JWT_SECRET` or the development default),
 * valid for an hour: `deno run -A examples/workspace/token.ts ann`.
 *
 * @module
 */
import { signToken } from "./auth.ts";

if (import.meta.main) {
  const username = Deno.args[0];
  if (!username) {
    console.error("usage: token.ts <username>");
    Deno.exit(2);
  }
  console.log(await signToken(username));
}
