import type { Table } from '../storage/store.js';

/**
 * One record of the OpenID provider's engine (oidc-provider's models: sessions, interactions, grants, codes, tokens,
 * device codes, pushed requests, replay ids, registered clients), as the project's store keeps it. The record is keyed
 * by a hash of the engine's id, because an opaque token's id is the token itself: the store never holds a token, a
 * code or a user code that could be presented (docs/oidc-provider.md). `payload` is the engine's JSON, as it gave it.
 */
export interface OidcRecord {
  readonly model: string;
  readonly payload: string;
  /** Epoch ms when the engine lets it go (its `expiresIn`); null for a registered client. */
  readonly expiresAt: number | null;
  /** Whose it is, once a person signed in (the account id, the `sub`); absent before. */
  readonly accountId?: string;
  /** The account's session epoch when the record was first written: it lives while the account's is the same. */
  readonly epoch?: number;
  /** The app a grant is to (a grant's only: consent is remembered per account and app). */
  readonly clientId?: string;
  /** The hashed ids the engine looks records up by besides their own. */
  readonly grantId?: string;
  readonly uid?: string;
  readonly userCode?: string;
}

const lookups = {
  byGrant: (record: OidcRecord) => (record.grantId === undefined ? null : [record.grantId]),
  byUid: (record: OidcRecord) => (record.uid === undefined ? null : [record.uid]),
  byUserCode: (record: OidcRecord) => (record.userCode === undefined ? null : [record.userCode]),
};

/**
 * What the engine holds for a person who signed in at its pages (a session, the grants to each app, codes and tokens):
 * the account's, erased with it and ended by what ends its sessions.
 */
export const OIDC_ACCOUNT_STATE: Table<OidcRecord> = {
  name: 'oidc-account-state',
  indexes: {
    ...lookups,
    byAccount: (record) => (record.accountId === undefined ? null : [record.accountId]),
    // The account's grants to an app: what a new session at the pages finds its consent in.
    grantsOf: (record) => (record.accountId === undefined || record.clientId === undefined ? null : [record.accountId, record.clientId]),
  },
  expiresAt: (record) => record.expiresAt,
  owner: {
    account: { index: 'byAccount' },
    credential: false,
    // Which app holds what (a grant, a session at the pages, a token), never a token, code or secret.
    exported: (record) => {
      const { clientId } = JSON.parse(record.payload) as { clientId?: unknown };
      return { kind: record.model, ...(typeof clientId === 'string' ? { clientId } : {}), ...(record.expiresAt === null ? {} : { expiresAt: new Date(record.expiresAt) }) };
    },
  },
};

/** What the engine holds before anyone signed in (an interaction, a pushed request, a device code not yet entered). */
export const OIDC_STATE: Table<OidcRecord> = {
  name: 'oidc-state',
  indexes: lookups,
  expiresAt: (record) => record.expiresAt,
  owner: { none: 'the engine\'s state before a person signs in (an interaction, a pushed request, a device code): no account yet, gone within minutes' },
};

/** The apps registered to sign people in through the provider (`npm run admin -- create-client`), their secrets sealed. */
export const OIDC_CLIENTS: Table<OidcRecord> = {
  name: 'oidc-clients',
  indexes: { all: () => [] },
  owner: { none: 'the apps registered by an operator: no account\'s' },
};
