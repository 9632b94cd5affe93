import { TotpFactor } from '../../../domain/second-factor.js';
import { InvalidToken, MfaAlreadyEnrolled } from '../../errors.js';
import type { Ports } from '../../ports/ports.js';
import { CHANGED, untilCommitted } from '../../shared/optimistic.js';
import type { Principal } from '../../shared/principal.js';

export interface EnrolTotpCommand {
  readonly principal: Principal;
}

/** What the owner copies into an authenticator app, shown this once: the secret, its `otpauth://` URI and its QR code. */
export interface TotpEnrolment {
  readonly secret: string;
  readonly uri: string;
  /** The URI as a QR code (an SVG document). */
  readonly qrCode: string;
}

/**
 * Starts a TOTP enrolment for the signed-in account: a fresh secret, stored sealed and unconfirmed until a code
 * from it arrives (ConfirmTotpHandler). Starting again before confirming replaces the secret; an account with a
 * confirmed factor gets MfaAlreadyEnrolled.
 */
export class EnrolTotpHandler {
  constructor(private readonly deps: Pick<Ports, 'users' | 'secondFactors' | 'totp' | 'factorSecrets' | 'clock'>) {}

  async execute(command: EnrolTotpCommand): Promise<TotpEnrolment> {
    const { users, secondFactors, totp, factorSecrets, clock } = this.deps;
    const user = await users.findById(command.principal.userId);
    if (!user) throw new InvalidToken();
    const secret = totp.newSecret();
    const sealed = factorSecrets.seal(secret, user.id);
    await untilCommitted(async () => {
      const existing = await secondFactors.find(user.id);
      if (existing && !existing.restart(sealed, clock.now())) throw new MfaAlreadyEnrolled();
      const stored = existing ? await secondFactors.save(existing, []) : await secondFactors.add(TotpFactor.enrol(user.id, sealed, clock.now()), []);
      return stored ? undefined : CHANGED;
    });
    const uri = totp.uriFor(secret, user.email.value);
    return { secret, uri, qrCode: await totp.qrCodeOf(uri) };
  }
}
