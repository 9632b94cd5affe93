import { DomainError } from '../../domain/domain-error.js';

/** Why a request carries no usable access token: none was presented, or the one presented is not acceptable. */
export type InvalidTokenReason = 'missing' | 'invalid';

const ISSUES: Readonly<Record<InvalidTokenReason, string>> = {
  missing: 'an access token is required (Authorization: Bearer <token>)',
  invalid: 'the access token is invalid or expired',
};

/**
 * The request is not authenticated. One error for every failure (bad signature, unknown key, expired,
 * wrong issuer or audience, unknown subject) so that a client learns nothing about which check failed.
 */
export class InvalidToken extends DomainError {
  readonly code = 'INVALID_TOKEN';

  constructor(readonly reason: InvalidTokenReason = 'invalid') {
    super('Invalid or missing access token', [{ field: null, message: ISSUES[reason] }]);
  }
}
