import type { MfaStatus, SessionAccount, UserReadModel, UserView } from '../../application/ports/user-read-model.port.js';
import { TOTP_FACTORS } from './factor-tables.js';
import { ACCOUNT_VIEWS, type AccountView } from './account-tables.js';
import type { Store } from './store.js';

/** The public user resource of an account, from its view (on the path of every bearer request and refresh). */
export const userViewOf = (id: string, { name, lastname, email, emailVerified }: AccountView): UserView => ({ id, name, lastname, email, emailverified: emailVerified });

/** Public user views from the account views (ACCOUNT_VIEWS), which hold no hash: one record read. */
export class StoreUserReadModel implements UserReadModel {
  constructor(private readonly store: Store) {}

  async findById(id: string): Promise<UserView | null> {
    const stored = await this.store.get(ACCOUNT_VIEWS, id);
    return stored && userViewOf(id, stored.value);
  }

  async sessionAccountOf(id: string): Promise<SessionAccount | null> {
    const stored = await this.store.get(ACCOUNT_VIEWS, id);
    return stored && { user: userViewOf(id, stored.value), sessionEpoch: stored.value.sessionEpoch };
  }

  /** From the factor's record, one read by key; only its confirmation and the unused codes are looked at. */
  async secondFactorOf(id: string): Promise<MfaStatus> {
    const factor = (await this.store.get(TOTP_FACTORS, id))?.value;
    if (!factor || factor.confirmedAt === null) return { enrolled: false, recoveryCodesLeft: 0 };
    return { enrolled: true, recoveryCodesLeft: factor.recoveryCodes.filter((code) => code.usedAt === null).length };
  }
}
