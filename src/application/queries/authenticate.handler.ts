import type { Ports } from '../ports/ports.js';
import type { VerifiedToken } from '../ports/token-verifier.port.js';

export interface AuthenticateQuery {
  /** The raw access token the client presented. */
  readonly accessToken: string;
}

/** Who a presented access token speaks for. Every authenticated route starts here. Writes nothing. */
export class AuthenticateHandler {
  constructor(private readonly deps: Pick<Ports, 'verifier'>) {}

  /** Returns the verified subject; throws InvalidToken for any token that is not acceptable now. */
  execute(query: AuthenticateQuery): Promise<VerifiedToken> {
    return this.deps.verifier.verify(query.accessToken);
  }
}
