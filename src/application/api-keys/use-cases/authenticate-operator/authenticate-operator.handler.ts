import type { ApiKeyScope } from '../../../../domain/operator.js';
import { InsufficientScope, KeyRateLimited, NotAnOperator, SecondFactorRequired } from '../../../errors.js';
import { acceptAccessToken } from '../../../policies/bearer.js';
import type { OperatorKeys } from '../../../ports/operator-keys.port.js';
import type { OperatorPrincipal } from '../../../shared/operator.js';
import type { ApiKeyPorts } from '../../ports/api-key-ports.js';

/** What an operator's access token may do on the admin API: read and change accounts; never introspection. */
export const OPERATOR_SCOPES: readonly ApiKeyScope[] = ['users:read', 'users:write'];

/** The methods (RFC 8176 `amr`) that show a second factor: a code of the authenticator app, or a passkey. */
const SECOND_FACTORS: readonly string[] = ['otp', 'webauthn'];

export interface OperatorTokenSettings {
  /** API_KEY_RATE_LIMIT_PER_MINUTE: requests one operator may make per minute, counted inside the store. */
  readonly perMinute: number;
  /** REQUIRE_VERIFIED_EMAIL: the core's bearer check refuses a token of an unproven address (EmailNotVerified). */
  readonly requireVerifiedEmail: boolean;
}

/**
 * An operator's own access token on the admin API: the core's bearer check accepts it (acceptAccessToken: it
 * verifies and its session is live now), its account holds the operator role now (read on each request, so a
 * revocation holds at once), its `amr` shows a second factor, the operation asks for users:read or users:write, and
 * the operator is under API_KEY_RATE_LIMIT_PER_MINUTE (counted per account). Throws InvalidToken, EmailNotVerified,
 * NotAnOperator, SecondFactorRequired, InsufficientScope (introspect) or KeyRateLimited, in that order; writes only the count.
 */
export class AuthenticateOperatorHandler implements OperatorKeys {
  constructor(
    private readonly deps: Pick<ApiKeyPorts, 'operators' | 'verifier' | 'sessionViews' | 'limits' | 'clock'>,
    private readonly settings: OperatorTokenSettings,
  ) {}

  async execute(query: { readonly key: string; readonly scope: ApiKeyScope }): Promise<OperatorPrincipal> {
    const { operators, limits, clock } = this.deps;
    const { token } = await acceptAccessToken(this.deps, query.key, this.settings.requireVerifiedEmail);
    if (!(await operators.isOperator(token.userId))) throw new NotAnOperator();
    if (!token.amr.some((method) => SECOND_FACTORS.includes(method))) throw new SecondFactorRequired();
    if (!OPERATOR_SCOPES.includes(query.scope)) throw new InsufficientScope(query.scope, "an operator's access token");
    const now = clock.now();
    const reached = await limits.take({ key: `operator:${token.userId}`, max: this.settings.perMinute, windowSeconds: 60 }, now);
    if (reached) throw new KeyRateLimited(Math.max(1, Math.ceil((reached.retryAt.getTime() - now.getTime()) / 1000)));
    return { operatorId: token.userId, scopes: OPERATOR_SCOPES };
  }
}
