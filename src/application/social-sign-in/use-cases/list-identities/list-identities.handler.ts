import type { SocialSignInPorts } from '../../ports/social-sign-in-ports.js';

export interface ListIdentitiesQuery {
  readonly userId: string;
}

/** A linked identity as its owner sees it: which provider, the address it showed, since when; never its subject's tokens. */
export interface IdentityResource {
  readonly id: string;
  readonly provider: string;
  readonly email: string | null;
  readonly createdat: string;
}

/** The account's linked provider identities, oldest first. Writes nothing. */
export class ListIdentitiesHandler {
  constructor(private readonly deps: Pick<SocialSignInPorts, 'identities'>) {}

  async execute(query: ListIdentitiesQuery): Promise<IdentityResource[]> {
    return (await this.deps.identities.listByUser(query.userId)).map(({ id, provider, email, createdAt }) => ({ id, provider, email, createdat: createdAt.toISOString() }));
  }
}
