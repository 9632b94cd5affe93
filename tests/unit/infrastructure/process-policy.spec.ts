import { expect } from 'chai';
import pino from 'pino';
import { installRejectionPolicy } from '../../../src/infrastructure/process-policy.js';

describe('the unhandled-rejection policy', () => {
  let before: NodeJS.UnhandledRejectionListener[];
  let exits: number[];
  let emit: (reason: unknown) => void;

  beforeEach(() => {
    before = process.listeners('unhandledRejection');
    exits = [];
    installRejectionPolicy(pino({ level: 'silent' }), (code) => exits.push(code));
    const added = process.listeners('unhandledRejection').filter((listener) => !before.includes(listener));
    emit = (reason) => added.forEach((listener) => listener(reason, Promise.resolve()));
  });
  afterEach(() => process.listeners('unhandledRejection').filter((l) => !before.includes(l)).forEach((l) => process.off('unhandledRejection', l)));

  it('goes on after a failed LMDB commit, which the adapter already answered with 503', () => {
    const failed = Object.assign(new Error('Commit failed (see commitError for details)'), { commitError: new Promise(() => undefined) });
    emit(failed);
    expect(exits).to.deep.equal([]);
  });

  it('exits with code 1 for anything else', () => {
    emit(new Error('something nobody expected'));
    expect(exits).to.deep.equal([1]);
  });
});
