import type { Ports } from '../../ports/ports.js';

export interface GetMfaStatusQuery {
  readonly userId: string;
}

/** Whether an account has a confirmed second factor, and how many recovery codes it has left: never a secret or a code. */
export interface MfaStatus {
  readonly enrolled: boolean;
  readonly recoveryCodesLeft: number;
}

/** Reads the account's second-factor status (GET /auth/me). One read by key; writes nothing. */
export class GetMfaStatusHandler {
  constructor(private readonly deps: Pick<Ports, 'secondFactors'>) {}

  async execute(query: GetMfaStatusQuery): Promise<MfaStatus> {
    const factor = await this.deps.secondFactors.find(query.userId);
    return factor?.confirmed ? { enrolled: true, recoveryCodesLeft: factor.recoveryCodesLeft } : { enrolled: false, recoveryCodesLeft: 0 };
  }
}
