import { type FieldIssue, InvalidInput } from '../../../../domain/domain-error.js';
import { mfaEnrolled } from '../../../../domain/second-factor/second-factor.js';
import { rawText, requireAll } from '../../../../domain/validation.js';
import { InvalidToken } from '../../../errors.js';
import type { RequestMetadata } from '../../../ports/event-log.port.js';
import type { SecondFactorPorts } from '../../ports/second-factor-ports.js';
import { RECOVERY_CODE_COUNT } from '../../policies/totp.js';
import { recordedAsDeclared } from '../../events.js';
import { CHANGED, untilCommitted } from '../../../shared/optimistic.js';
import type { Principal } from '../../../shared/principal.js';


export interface ConfirmTotpCommand {
  readonly principal: Principal;
  readonly code: unknown;
  readonly metadata: RequestMetadata;
}

const INCORRECT: readonly FieldIssue[] = [{ field: 'code', code: 'INCORRECT', message: 'is incorrect or already used' }];

/**
 * Confirms the signed-in account's pending TOTP enrolment with a code from the authenticator: the code's time step
 * is taken as used (never accepted again), the factor is confirmed with RECOVERY_CODE_COUNT recovery codes, stored
 * as MACs only and returned this once, and MfaEnrolled is recorded, all in one compare-and-swap commit.
 */
export class ConfirmTotpHandler {
  constructor(private readonly deps: Pick<SecondFactorPorts, 'users' | 'secondFactors' | 'totp' | 'factorSecrets' | 'clock' | 'ids'>) {}

  /** Throws InvalidInput on `code` (missing, wrong, replayed, or no enrolment pending), InvalidToken for an unknown account. */
  async execute(command: ConfirmTotpCommand): Promise<{ readonly recoveryCodes: readonly string[] }> {
    const { users, secondFactors, totp, factorSecrets, clock, ids } = this.deps;
    const { code } = requireAll({ code: rawText('code', command.code === '' ? undefined : command.code) });
    const user = await users.findById(command.principal.userId);
    if (!user) throw new InvalidToken();
    return untilCommitted(async () => {
      const factor = await secondFactors.find(user.id);
      const secret = factor && !factor.confirmed ? factorSecrets.open(factor.sealedSecret, user.id) : null;
      const at = clock.now();
      const step = factor && secret !== null ? totp.stepOf(secret, code.trim(), at, factor.lastStep) : null;
      if (!factor || step === null || !factor.accept(step, at)) throw new InvalidInput(INCORRECT);
      const recoveryCodes = factorSecrets.newRecoveryCodes(RECOVERY_CODE_COUNT);
      factor.replaceRecoveryCodes(recoveryCodes.map((recoveryCode) => factorSecrets.macOf(recoveryCode, user.id)));
      const saved = await secondFactors.save(factor, recordedAsDeclared([mfaEnrolled(user.id, user.email.value, at)], ids, command.metadata));
      return saved ? { recoveryCodes } : CHANGED;
    });
  }
}
