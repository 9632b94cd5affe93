import type { PasskeysPorts } from '../../ports/passkeys-ports.js';
import { type PasskeyResource, toPasskeyResource } from '../../policies/passkeys.js';

export interface ListPasskeysQuery {
  readonly userId: string;
}

/** The account's passkeys, oldest first (never a key). Writes nothing. */
export class ListPasskeysHandler {
  constructor(private readonly deps: Pick<PasskeysPorts, 'passkeys'>) {}

  async execute(query: ListPasskeysQuery): Promise<PasskeyResource[]> {
    return (await this.deps.passkeys.listByUser(query.userId)).map(toPasskeyResource);
  }
}
