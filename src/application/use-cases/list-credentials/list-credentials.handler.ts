import type { Ports } from '../../ports/ports.js';
import type { CredentialView } from '../../ports/user-read-model.port.js';

export interface ListCredentialsQuery {
  readonly userId: string;
}

/** One way into the account as its owner sees it, and whether removing it is refused as the last way in. */
export interface CredentialResource extends CredentialView {
  /** The account's only first factor: removing it is refused (LAST_SIGN_IN_METHOD) while nothing else signs in. */
  readonly lastWayIn: boolean;
}

/**
 * Every way into the account, of every kind (a password, the authenticator app, passkeys, provider identities; what a
 * capability adds, by its tables' declarations), in one list: what the last-way-in rule counts (`signsIn`) and which
 * one it protects (`lastWayIn`). Never a secret. Writes nothing.
 */
export class ListCredentialsHandler {
  constructor(private readonly deps: Pick<Ports, 'userViews'>) {}

  async execute(query: ListCredentialsQuery): Promise<CredentialResource[]> {
    const credentials = await this.deps.userViews.credentialsOf(query.userId);
    const firstFactors = credentials.filter((credential) => credential.signsIn).length;
    return credentials.map((credential) => ({ ...credential, lastWayIn: credential.signsIn && firstFactors === 1 }));
  }
}
