/**
 * The oldest Node.js the service runs on, for `node dist/start.cjs` run directly (the npm scripts check it first with
 * tools/check-node.cjs): argon2 0.45's prebuilt binary declares Node-API 10, which Node has since 22.14.0 (23.6.0 on
 * the 23 line); an older Node loads it anyway and dies of a segmentation fault. src/start.cts stops with this line
 * before loading anything else. The same floor and the same line as tools/check-node.cjs and package.json's engines
 * (tests/unit/infrastructure/node-floor.spec.ts). CommonJS, and no syntax newer than Node 12 parses (no `?.`, no
 * `??`), because an old Node reads this file before it is refused.
 */
export const NODE_FLOOR = '22.14.0';
/** The 23 line (end of life since June 2025) got Node-API 10 only in 23.6.0. */
const LINE_FLOORS: Readonly<Record<number, string>> = { 23: '23.6.0' };
const FIX = 'run it through npm after "npm ci" (which installs the Node.js the project is tested on into node_modules), or install Node.js 22 LTS';

const parts = (version: string): number[] =>
  version
    .replace(/^v/, '')
    .split('.')
    .map((part) => parseInt(part, 10) || 0);

/** The one line a Node older than the floor of its line stops with (`found` as process.version writes it); else undefined. */
export function nodeFloorRefusal(found: string): string | undefined {
  const have = parts(found);
  const need = parts(LINE_FLOORS[have[0] || 0] || NODE_FLOOR);
  for (let i = 0; i < need.length; i++) {
    const a = have[i] || 0;
    const b = need[i] || 0;
    if (a !== b) return a < b ? `account-service needs Node.js >= ${NODE_FLOOR} (found ${found}): ${FIX}` : undefined;
  }
  return undefined;
}
