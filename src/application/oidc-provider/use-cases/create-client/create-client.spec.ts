import { expect } from 'chai';
import type { ClientRegistration, ClientView, OidcClients, RegisteredClient } from '../../ports/oidc-clients.port.js';
import { CreateClientHandler } from './create-client.handler.js';

const registration: ClientRegistration = { name: 'Billing', redirectUris: ['https://app.example.com/cb'], postLogoutRedirectUris: [], public: false, firstParty: false, deviceGrant: false };

describe('CreateClientHandler (createClient)', () => {
  it('registers the app as described, at the clock\'s time, and answers what the registration answers (its secret once)', async () => {
    const seen: [ClientRegistration, Date][] = [];
    const clients: OidcClients = {
      register: (asked, at) => {
        seen.push([asked, at]);
        const view: ClientView = { client_id: 'c-1', name: asked.name, redirect_uris: asked.redirectUris, post_logout_redirect_uris: [], public: false, first_party: false, grant_types: ['authorization_code'], created_at: at.toISOString() };
        return Promise.resolve<RegisteredClient>({ ...view, client_secret: 's3cret' });
      },
      list: () => Promise.resolve([]),
      remove: () => Promise.resolve(false),
    };
    const at = new Date('2026-12-07T10:00:00.000Z');
    const made = await new CreateClientHandler({ clients, clock: { now: () => at } }).execute(registration);
    expect(seen).to.deep.equal([[registration, at]]);
    expect(made).to.include({ client_id: 'c-1', client_secret: 's3cret', created_at: '2026-12-07T10:00:00.000Z' });
  });
});
