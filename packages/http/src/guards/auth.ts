import { digestsEqual, hashApiKey, hasValidChecksum } from "@tminus/admin";
import type { Account, ApiKeyRecord } from "@tminus/store";
import { ApiError } from "../errors";
import type { ReadCache } from "./read-cache";

/** Who is calling: the key, its account and environment. */
export interface AuthContext {
  key: ApiKeyRecord;
  account: Account;
}

// Exactly "Bearer", one space, then a token without spaces (Authentication rule 1).
const BEARER = /^Bearer ([^\s]+)$/;

/**
 * Authenticates a request from its Authorization header alone (no query parameter, cookie or
 * signature authenticates). Order of failures follows the specification's table.
 */
export async function authenticate(
  store: Pick<ReadCache, "findKey">,
  header: string | null,
  now: number,
): Promise<AuthContext> {
  if (header === null || header === "") {
    throw new ApiError(
      "unauthorized",
      "Authorization header is missing; send Authorization: Bearer <API_KEY>",
    );
  }
  const match = BEARER.exec(header);
  if (!match) {
    throw new ApiError(
      "unauthorized",
      "Authorization header is malformed; the form is Authorization: Bearer <API_KEY> with one space",
    );
  }
  const secret = match[1]!;
  const hash = hashApiKey(secret);
  // A checksum failure is a typo or a forged key: refused without touching the store. Asked
  // only when the key is not cached: a cached key passed it when it was first looked up.
  const found = await store.findKey(hash, () => hasValidChecksum(secret));
  // The index finds the row; the constant-time check makes the final comparison independent
  // of where two digests first differ.
  if (!found) throw invalidKey();
  // Stryker disable next-line ConditionalExpression: "false" is equivalent with every real store, whose lookup is by this very digest.
  if (!digestsEqual(found.key.hash, hash)) throw invalidKey();
  // A rolled key works until its end, then is as revoked.
  if (found.key.expires_at !== null && found.key.expires_at <= now) throw invalidKey();
  if (found.account.status !== "active") {
    throw new ApiError(
      "suspended",
      "the account is suspended; its keys are valid but no request is served until it is reactivated",
    );
  }
  return found;
}

function invalidKey(): ApiError {
  return new ApiError("invalid_api_key", "the API key does not exist or was revoked");
}
