import { expect } from 'chai';
import type { ClientView, OidcClients } from '../../ports/oidc-clients.port.js';
import { ListClientsHandler } from './list-clients.handler.js';

const view = (id: string): ClientView => ({ client_id: id, name: id, redirect_uris: [], post_logout_redirect_uris: [], public: true, first_party: false, grant_types: [], created_at: '2026-12-07T10:00:00.000Z' });

describe('ListClientsHandler (listClients)', () => {
  it('answers the registered apps as the store lists them', async () => {
    const clients: OidcClients = { register: () => Promise.reject(new Error('not here')), list: () => Promise.resolve([view('a'), view('b')]), remove: () => Promise.resolve(false) };
    expect((await new ListClientsHandler({ clients }).execute()).map((client) => client.client_id)).to.deep.equal(['a', 'b']);
  });
});
