import { createHmac, timingSafeEqual } from 'node:crypto';
import type { BindingSubject, OneTimeClaim, OneTimePurpose, OneTimeTokens } from '../../application/ports/one-time-tokens.port.js';

const TOKEN = /^(reset|verify|email-change|email-cancel|email-revert)1\.([A-Za-z0-9-]{1,64})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/;

/**
 * `<purpose>1.<user id>.<issued at, ms, base 36>.<HMAC-SHA256>`, keyed by a key of its own (HKDF from the same secret
 * as refresh tokens, another label). The MAC covers the claim and a binding: HMAC of the address (and, for a reset,
 * the password hash; for a change of address, the new address: both of its links share it; for a revert, the address
 * the account moved to and the one it left) under the same key, so the event that asks for the mail may keep the binding without anyone
 * being able to make the token from the log.
 */
export class HmacOneTimeTokens implements OneTimeTokens {
  constructor(private readonly key: Buffer) {}

  bindingFor(purpose: OneTimePurpose, subject: BindingSubject): string {
    if (purpose === 'email-change' || purpose === 'email-cancel') {
      return this.mac(['binding', 'email-change', subject.id, subject.email, subject.newEmail ?? '']).toString('base64url');
    }
    if (purpose === 'email-revert') {
      return this.mac(['binding', purpose, subject.id, subject.email, subject.previousEmail ?? '']).toString('base64url');
    }
    const state = purpose === 'reset' ? [subject.id, subject.email, subject.passwordHash] : [subject.id, subject.email];
    return this.mac(['binding', purpose, ...state]).toString('base64url');
  }

  issue(claim: OneTimeClaim, binding: string): string {
    const issuedAt = claim.issuedAt.getTime().toString(36);
    return `${claim.purpose}1.${claim.userId}.${issuedAt}.${this.mac(['token', claim.purpose, claim.userId, issuedAt, binding]).toString('base64url')}`;
  }

  read(oneTimeToken: string): OneTimeClaim | null {
    const match = TOKEN.exec(oneTimeToken);
    if (!match?.[1] || !match[2] || !match[3]) return null;
    const issuedAt = parseInt(match[3], 36);
    return Number.isSafeInteger(issuedAt) ? { purpose: match[1] as OneTimePurpose, userId: match[2], issuedAt: new Date(issuedAt) } : null;
  }

  matches(oneTimeToken: string, binding: string): boolean {
    const claim = this.read(oneTimeToken);
    if (!claim) return false;
    const expected = Buffer.from(this.issue(claim, binding));
    const presented = Buffer.from(oneTimeToken);
    return expected.length === presented.length && timingSafeEqual(expected, presented);
  }

  private mac(parts: readonly string[]): Buffer {
    return createHmac('sha256', this.key).update(parts.join('\u0000')).digest();
  }
}
