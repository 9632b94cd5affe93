import { TotpFactor } from '../../../../domain/second-factor/second-factor.js';
import { MfaAlreadyEnrolled } from '../../../errors.js';
import type { RequestMetadata } from '../../../ports/event-log.port.js';
import type { SecondFactorPorts } from '../../ports/second-factor-ports.js';
import { proveHolder } from '../../../policies/holder.js';
import type { MfaSettings } from '../../../policies/second-factor.js';
import type { SessionSettings } from '../../../policies/sessions.js';
import { CHANGED, untilCommitted } from '../../../shared/optimistic.js';
import type { Principal } from '../../../shared/principal.js';

export interface EnrolTotpCommand {
  readonly principal: Principal;
  /** The account's password, as the client sent it: adding a way in proves the holder now. */
  readonly currentPassword: unknown;
  readonly metadata: RequestMetadata;
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
 * from it arrives (ConfirmTotpHandler). Adding a way in is guarded as every one is (proveHolder): a proven address,
 * the current password, and a step-up once a factor exists. Starting again before confirming replaces the secret; an
 * account with a confirmed factor gets MfaAlreadyEnrolled.
 */
export class EnrolTotpHandler {
  constructor(
    private readonly deps: Pick<SecondFactorPorts, 'mfa' | 'reauthentications' | 'authenticators' | 'totp' | 'factorSecrets' | 'users' | 'sessions' | 'secondFactors' | 'events' | 'limits' | 'hasher' | 'clock' | 'ids'>,
    private readonly settings: { readonly sessions: Pick<SessionSettings, 'passwordChangeMaxFailures' | 'lifetimes'>; readonly mfa: MfaSettings },
  ) {}

  /** Throws EmailNotVerified, StepUpRequired, InvalidInput (`currentpassword`), MfaAlreadyEnrolled, InvalidToken. */
  async execute(command: EnrolTotpCommand): Promise<TotpEnrolment> {
    const { secondFactors, totp, factorSecrets, clock } = this.deps;
    const user = await proveHolder(this.deps, this.settings, command, 'enrol-totp');
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
