import { ObjectId } from 'mongodb';
import { InvalidCursor } from '../../application/errors.js';

/** Where a page of events ended: the sort key (occurredAt desc, _id desc) of its last event. */
export interface EventPosition {
  readonly occurredAt: Date;
  readonly id: ObjectId;
}

const FORMAT = /^m1:(\d{1,15}):([0-9a-f]{24})$/;

/** Encodes a position as opaque base64url text, in a format no other adapter issues. */
export const encodeMongoCursor = (position: EventPosition): string =>
  Buffer.from(`m1:${position.occurredAt.getTime()}:${position.id.toHexString()}`).toString('base64url');

/** Returns the position in a cursor from `encodeMongoCursor`; throws InvalidCursor for anything else. */
export const decodeMongoCursor = (cursor: string): EventPosition => {
  const match = FORMAT.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match?.[1] || !match[2]) throw new InvalidCursor();
  return { occurredAt: new Date(Number(match[1])), id: ObjectId.createFromHexString(match[2]) };
};
