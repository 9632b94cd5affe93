import { InvalidCursor } from '../application/errors.js';

/** Cursors are opaque to clients: a position encoded as base64url text. */
export const encodeCursor = (position: number): string => Buffer.from(`p:${position}`).toString('base64url');

/** Returns the position in a cursor from `encodeCursor`; throws InvalidCursor for anything else. */
export const decodeCursor = (cursor: string): number => {
  const match = /^p:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match?.[1]) throw new InvalidCursor();
  return Number(match[1]);
};
