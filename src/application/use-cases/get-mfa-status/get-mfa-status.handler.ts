import type { Ports } from '../../ports/ports.js';
import type { MfaStatus } from '../../ports/user-read-model.port.js';

export interface GetMfaStatusQuery {
  readonly userId: string;
}

export type { MfaStatus };

/** Reads the account's second-factor status (GET /auth/me) through the read side: one record by key, no aggregate. */
export class GetMfaStatusHandler {
  constructor(private readonly deps: Pick<Ports, 'userViews'>) {}

  execute(query: GetMfaStatusQuery): Promise<MfaStatus> {
    return this.deps.userViews.secondFactorOf(query.userId);
  }
}
