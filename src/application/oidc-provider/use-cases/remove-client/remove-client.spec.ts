import { expect } from 'chai';
import { ClientNotFound } from '../../errors.js';
import type { OidcClients } from '../../ports/oidc-clients.port.js';
import { RemoveClientHandler } from './remove-client.handler.js';

describe('RemoveClientHandler (removeClient)', () => {
  const registered = new Set(['c-1']);
  const clients: OidcClients = { register: () => Promise.reject(new Error('not here')), list: () => Promise.resolve([]), remove: (id) => Promise.resolve(registered.delete(id)) };

  it('removes a registered app and says which', async () => {
    expect(await new RemoveClientHandler({ clients }).execute('c-1')).to.deep.equal({ removed: 'c-1' });
    expect(registered.has('c-1')).to.equal(false);
  });

  it('refuses an id no app has (CLIENT_NOT_FOUND), the second removal of one included', async () => {
    const refused = await new RemoveClientHandler({ clients }).execute('c-1').catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(ClientNotFound).and.have.property('code', 'CLIENT_NOT_FOUND');
  });
});
