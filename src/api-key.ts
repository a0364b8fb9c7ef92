/**
 * The shape of an Odoo API key: 40 lowercase hex digits, the only shape Odoo 19 generates
 * (`binascii.hexlify(os.urandom(API_KEY_SIZE))` with API_KEY_SIZE 20, `res.users.apikeys._generate`).
 */

/** A whole string that is shaped like an API key. */
const apiKeyPattern = /^[0-9a-f]{40}$/;

/** Every API-key-shaped word in a text (for redaction). */
export const apiKeysInText = /\b[0-9a-f]{40}\b/g;

export function looksLikeApiKey(text: string): boolean {
  return apiKeyPattern.test(text);
}
