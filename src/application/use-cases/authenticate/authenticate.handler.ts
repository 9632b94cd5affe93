import { InvalidToken } from '../../errors.js';
import type { Ports } from '../../ports/ports.js';
import type { Principal } from '../../shared/principal.js';

export interface AuthenticateQuery {
  /** The raw access token the client presented. */
  readonly accessToken: string;
}

/** Every authenticated route starts here: the token must verify AND its session must be live now. Writes nothing. */
export class AuthenticateHandler {
  constructor(private readonly deps: Pick<Ports, 'verifier' | 'sessionViews' | 'clock'>) {}

  /** Returns the principal; throws InvalidToken for a token that does not verify, names no session, or whose session ended. */
  async execute(query: AuthenticateQuery): Promise<Principal> {
    const { userId, sessionId } = await this.deps.verifier.verify(query.accessToken);
    if (sessionId === null) throw new InvalidToken();
    if (!(await this.deps.sessionViews.isLive(sessionId, userId, this.deps.clock.now()))) throw new InvalidToken();
    return { userId, sessionId };
  }
}
