import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

// docs/operating.md: partners' webhook secrets and bank connections' settings are kept encrypted
// (AES-256-GCM) when a master key is given. A sealed value names the key that sealed it and is
// bound to its row and column (the additional data), so it cannot be moved to another row.

const PREFIX = "kasa-enc:v1:";
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** A missing, malformed or wrong master key: one line for the operator, nothing changed. */
export class MasterKeyError extends Error {
  override name = "MasterKeyError";
}

/** 32 bytes written as 64 hex digits or 44 base64 characters (a trailing newline is fine). */
export function parseMasterKey(text: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, "hex") : /^[A-Za-z0-9+/]{43}=$/.test(t) ? Buffer.from(t, "base64") : null;
  if (key === null || key.length !== KEY_BYTES) throw new MasterKeyError("the master key must be 32 bytes as 64 hex digits or base64");
  return key;
}

/** A new key in the file format (`kasa sandbox` makes one beside its database). */
export const newMasterKeyText = (): string => `${randomBytes(KEY_BYTES).toString("hex")}\n`;

/** Names a key without revealing it: the first 8 bytes of SHA-256 of "kasa-master-key" and the key. */
export const keyIdOf = (key: Buffer): string => createHash("sha256").update("kasa-master-key\u0000").update(key).digest("hex").slice(0, 16);

export const isSealed = (stored: string | null): boolean => stored?.startsWith(PREFIX) ?? false;

export interface SecretBox {
  /** null without a master key: values are kept in clear. */
  readonly keyId: string | null;
  seal(plain: string | null, aad: string): string | null;
  open(stored: string | null, aad: string): string | null;
}

/** `required`: the database's secrets are sealed already, so none may be written in clear. */
export function secretBox(key: Buffer | null, { required = false }: { required?: boolean } = {}): SecretBox {
  const keyId = key === null ? null : keyIdOf(key);
  return {
    keyId,
    seal(plain, aad) {
      if (plain === null) return plain;
      if (key === null) {
        if (required)
          throw new MasterKeyError("the database's secrets are encrypted: give the master key (--master-key-file or KASA_MASTER_KEY)");
        return plain;
      }
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, nonce);
      cipher.setAAD(Buffer.from(aad, "utf8"));
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return `${PREFIX}${keyId}:${Buffer.concat([nonce, body, cipher.getAuthTag()]).toString("base64")}`;
    },
    open(stored, aad) {
      if (stored === null || !isSealed(stored)) return stored;
      if (key === null)
        throw new MasterKeyError("the database holds encrypted secrets: give the master key (--master-key-file or KASA_MASTER_KEY)");
      const [sealedBy, b64] = stored.slice(PREFIX.length).split(":");
      if (sealedBy !== keyId) throw new MasterKeyError(`wrong master key: the secrets were sealed with key ${sealedBy}, this is ${keyId}`);
      const raw = Buffer.from(b64 ?? "", "base64");
      if (raw.length < NONCE_BYTES + TAG_BYTES) throw new MasterKeyError(`a sealed secret (${aad}) is damaged`);
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, NONCE_BYTES));
        decipher.setAAD(Buffer.from(aad, "utf8"));
        decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
        return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString("utf8");
      } catch {
        throw new MasterKeyError(`a sealed secret (${aad}) does not decrypt with this master key`);
      }
    },
  };
}
