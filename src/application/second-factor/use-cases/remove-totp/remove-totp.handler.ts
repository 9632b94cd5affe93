import { InvalidInput } from '../../../../domain/domain-error.js';
import { PlainPassword } from '../../../../domain/password.js';
import { mfaRemoved } from '../../../../domain/second-factor/second-factor.js';
import { requireAll } from '../../../../domain/validation.js';
import { InvalidMfaCode, InvalidToken, MfaNotEnrolled } from '../../../errors.js';
import type { RequestMetadata } from '../../../ports/event-log.port.js';
import type { SecondFactorPorts } from '../../ports/second-factor-ports.js';
import { type MfaSettings, parseFactorAnswer, requireStepUp } from '../../../policies/second-factor.js';
import { proveFactor } from '../../policies/totp.js';
import { type SessionSettings, passwordCheckLimit } from '../../../policies/sessions.js';
import { recordedAsDeclared } from '../../events.js';
import { CHANGED, untilCommitted } from '../../../shared/optimistic.js';
import type { Principal } from '../../../shared/principal.js';

export interface RemoveTotpCommand {
  readonly principal: Principal;
  readonly currentPassword: unknown;
  readonly code: unknown;
  readonly metadata: RequestMetadata;
}

/**
 * Removes the account's TOTP factor and its recovery codes: after a step-up, with the current password and a code of
 * the authenticator (a step not used yet). The password check is counted on the caller's session as a password
 * change counts it (PASSWORD_CHANGE_MAX_FAILURES). MfaRemoved (a notice mail), one compare-and-swap commit: a code
 * used meanwhile elsewhere refuses it.
 */
export class RemoveTotpHandler {
  constructor(
    private readonly deps: Pick<SecondFactorPorts, 'mfa' | 'users' | 'secondFactors' | 'totp' | 'factorSecrets' | 'limits' | 'hasher' | 'clock' | 'ids'>,
    private readonly sessions: Pick<SessionSettings, 'passwordChangeMaxFailures' | 'lifetimes'>,
    private readonly settings: MfaSettings,
  ) {}

  /** Throws StepUpRequired, InvalidInput (`currentpassword` when wrong), InvalidMfaCode, MfaNotEnrolled, InvalidToken. */
  async execute(command: RemoveTotpCommand): Promise<void> {
    const { users, secondFactors, limits, hasher, clock, ids } = this.deps;
    await requireStepUp(this.deps, this.settings, command.principal);
    const { password, answer } = requireAll({
      password: PlainPassword.parse(command.currentPassword, 'currentpassword'),
      answer: parseFactorAnswer({ code: command.code }),
    });
    const user = await users.findById(command.principal.userId);
    if (!user) throw new InvalidToken();
    if (await limits.take(passwordCheckLimit(command.principal.sessionId, this.sessions), clock.now())) throw new InvalidToken();
    if (!(await hasher.verify(user.passwordHash, password))) throw new InvalidInput([{ field: 'currentpassword', code: 'INCORRECT', message: 'is incorrect' }]);
    await untilCommitted(async () => {
      const factor = await secondFactors.find(user.id);
      if (!factor?.confirmed) throw new MfaNotEnrolled();
      const at = clock.now();
      if (answer.kind === 'authenticator' || typeof proveFactor(this.deps, factor, answer, user.id, user.email.value, at) === 'string') throw new InvalidMfaCode('code');
      const events = recordedAsDeclared([mfaRemoved(user.id, user.email.value, at)], ids, command.metadata);
      return (await secondFactors.remove(factor, events)) ? undefined : CHANGED;
    });
  }
}
