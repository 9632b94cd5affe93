import { recoveryCodesRegenerated } from '../../../../domain/second-factor/second-factor.js';
import { InvalidToken, MfaNotEnrolled } from '../../../errors.js';
import type { RequestMetadata } from '../../../ports/event-log.port.js';
import type { SecondFactorPorts } from '../../ports/second-factor-ports.js';
import { type MfaSettings, requireStepUp } from '../../../policies/second-factor.js';
import { RECOVERY_CODE_COUNT } from '../../policies/totp.js';
import { recordedAsDeclared } from '../../events.js';
import { CHANGED, untilCommitted } from '../../../shared/optimistic.js';
import type { Principal } from '../../../shared/principal.js';

export interface RegenerateRecoveryCodesCommand {
  readonly principal: Principal;
  readonly metadata: RequestMetadata;
}

/**
 * New recovery codes for an account with a second factor, after a step-up: RECOVERY_CODE_COUNT fresh ones, shown
 * this once and stored as MACs; every earlier one, used or not, stops working. RecoveryCodesRegenerated, one
 * compare-and-swap commit with the factor.
 */
export class RegenerateRecoveryCodesHandler {
  constructor(
    private readonly deps: Pick<SecondFactorPorts, 'mfa' | 'users' | 'secondFactors' | 'factorSecrets' | 'clock' | 'ids'>,
    private readonly settings: MfaSettings,
  ) {}

  /** Throws StepUpRequired, MfaNotEnrolled, or InvalidToken for an unknown account. */
  async execute(command: RegenerateRecoveryCodesCommand): Promise<{ readonly recoveryCodes: readonly string[] }> {
    const { users, secondFactors, factorSecrets, clock, ids } = this.deps;
    await requireStepUp(this.deps, this.settings, command.principal);
    const user = await users.findById(command.principal.userId);
    if (!user) throw new InvalidToken();
    return untilCommitted(async () => {
      const factor = await secondFactors.find(user.id);
      if (!factor?.confirmed) throw new MfaNotEnrolled();
      const recoveryCodes = factorSecrets.newRecoveryCodes(RECOVERY_CODE_COUNT);
      factor.replaceRecoveryCodes(recoveryCodes.map((code) => factorSecrets.macOf(code, user.id)));
      const events = recordedAsDeclared([recoveryCodesRegenerated(user.id, user.email.value, clock.now())], ids, command.metadata);
      return (await secondFactors.save(factor, events)) ? { recoveryCodes } : CHANGED;
    });
  }
}
