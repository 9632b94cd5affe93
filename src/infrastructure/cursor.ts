import { InvalidCursor } from '../application/errors.js';

/** Cursors are opaque to clients: a position encoded as base64url text. */
export const encodeCursor = (position: number): string => Buffer.from(`p:${position}`).toString('base64url');

/** Returns the position in a cursor from `encodeCursor`; throws InvalidCursor for anything else. */
export const decodeCursor = (cursor: string): number => {
  const match = /^p:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match?.[1]) throw new InvalidCursor();
  return Number(match[1]);
};

/** Where a page of sessions ended: the sort key (createdAt desc, id desc) of its last session. */
export interface SessionPosition {
  readonly createdAt: number;
  readonly id: string;
}

const SESSION_FORMAT = /^s1:(\d{1,15}):([0-9A-Za-z-]{1,64})$/;

/** Encodes a position in a user's sessions as opaque base64url text, in a format no event cursor has. */
export const encodeSessionCursor = (position: SessionPosition): string => Buffer.from(`s1:${position.createdAt}:${position.id}`).toString('base64url');

/** Returns the position in a cursor from `encodeSessionCursor`; throws InvalidCursor for anything else. */
export const decodeSessionCursor = (cursor: string): SessionPosition => {
  const match = SESSION_FORMAT.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match?.[1] || !match[2]) throw new InvalidCursor();
  return { createdAt: Number(match[1]), id: match[2] };
};

/** Whether a session sorts after `position` (older, or as old with a smaller id): on a later page. */
export const isAfter = (session: SessionPosition, position: SessionPosition | null): boolean =>
  position === null || session.createdAt < position.createdAt || (session.createdAt === position.createdAt && session.id < position.id);

