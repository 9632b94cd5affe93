import type { RecordedEvent } from '../../application/ports/event-log.port.js';
import type { OAuthCode, OAuthFlow, OAuthFlowRepository } from '../../application/social-sign-in/ports/oauth-flow-repository.port.js';
import { OAUTH_CODES, OAUTH_FLOWS } from './oauth-tables.js';
import { type Store, type Table, put, remove } from '../storage/store.js';

/** Flows and one-time codes of social sign-in over the storage primitive: each taken once, by compare-and-swap. */
export class StoreOAuthFlowRepository implements OAuthFlowRepository {
  constructor(private readonly store: Store) {}

  async open(flow: OAuthFlow): Promise<void> {
    await this.store.commit({ changes: [put(OAUTH_FLOWS, flow.id, flow, null)] });
  }

  take(id: string): Promise<OAuthFlow | null> {
    return this.takeFrom(OAUTH_FLOWS, id);
  }

  /** A link code's `email` is sealed (personal); a sign-in code has none, and reads back without the field. */
  async issue(code: OAuthCode, events: readonly RecordedEvent[]): Promise<void> {
    await this.store.commit({ changes: [put(OAUTH_CODES, code.id, code, null)], events });
  }

  async redeem(id: string): Promise<OAuthCode | null> {
    const code = await this.takeFrom(OAUTH_CODES, id);
    if (code === null || code.email !== undefined) return code;
    const { email: _absent, ...signIn } = code;
    return signIn;
  }

  private async takeFrom<R>(table: Table<R>, id: string): Promise<R | null> {
    const stored = await this.store.get(table, id);
    if (!stored) return null;
    const outcome = await this.store.commit({ changes: [remove(table, id, stored.version)] });
    return outcome.status === 'committed' ? stored.value : null;
  }
}
