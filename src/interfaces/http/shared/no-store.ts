import type { FastifyReply } from 'fastify';

/** Marks an answer that carries a token or personal data as never to be stored by any cache (RFC 6749 section 5.1). */
export const noStore = (reply: FastifyReply): FastifyReply => reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
