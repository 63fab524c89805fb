import { scrypt, timingSafeEqual } from "node:crypto";
import { invariant } from "../../invariant";
import type { Sensitive } from "../../sensitive";

// Panel passwords (docs/panel.md): Argon2id through `Bun.password` in the product (Bun). Node 20 has
// no Argon2, and Node runs only the test suite, so there the hash is scrypt (N=2^15, r=8, p=1) in
// the same PHC-like string form. Each runtime verifies what it wrote; a database is never moved
// from the Bun binary to Node, and a hash of the other kind is refused loudly, not guessed at.

type BunPassword = {
  hash(password: string, options: { algorithm: "argon2id" }): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
};

const bunPassword = (): BunPassword | null => (globalThis as { Bun?: { password: BunPassword } }).Bun?.password ?? null;

const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const SCRYPT_KEY_BYTES = 32;

const scryptKey = (password: string, salt: Buffer): Promise<Buffer> =>
  new Promise((resolve, reject) => scrypt(password, salt, SCRYPT_KEY_BYTES, SCRYPT, (err, key) => (err ? reject(err) : resolve(key))));

/** `salt` is used by the scrypt form only (Argon2id makes its own): randomness stays in ids.ts. */
export async function hashPassword(password: Sensitive<string>, salt: Buffer): Promise<string> {
  const bun = bunPassword();
  if (bun) return bun.hash(password.reveal(), { algorithm: "argon2id" });
  const key = await scryptKey(password.reveal(), salt);
  return `$scrypt$N=${SCRYPT.N},r=${SCRYPT.r},p=${SCRYPT.p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(password: Sensitive<string>, hash: string): Promise<boolean> {
  const bun = bunPassword();
  if (hash.startsWith("$argon2")) {
    invariant(bun !== null, "an Argon2id panel password can only be verified by the Bun binary");
    return bun.verify(password.reveal(), hash);
  }
  const [, kind, , salt, key] = hash.split("$");
  invariant(kind === "scrypt" && salt !== undefined && key !== undefined, "unknown panel password hash form");
  const expected = Buffer.from(key, "base64");
  const actual = await scryptKey(password.reveal(), Buffer.from(salt, "base64"));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
