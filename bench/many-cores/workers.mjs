// WORKERS on the many-core machine: the service in one process and in WORKERS processes (node:cluster), each on a
// fresh DATA_DIR, against a bare Fastify route answering the same bytes in one process and in as many processes,
// for GET /auth/me, refresh (64 chains, each rotation durable), the 400 path and sign-in at saturation (against the
// raw argon2id ceiling at HASH_CONCURRENCY = cores). ROUNDS rounds (default 2), interleaved. Run by run.sh on the device machine.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { SVC, startProc } from './device-service.mjs';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
const req = createRequire(SVC + '/package.json');
const autocannon = createRequire('/opt/b/load/package.json')('autocannon');
const CORES = availableParallelism();
const MANY = Number(process.env.MANY ?? Math.max(2, Math.floor(CORES / 2)));
const USER = { name: 'Bench', lastname: 'Mark', email: 'bench@example.com', password: 'correct horse battery staple' };
const post = (base, path, body) => fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() }));
const ok = (r, seconds) => ({ rps: r['2xx'] / seconds, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors });
const getLoad = (url, headers, seconds = 6) => autocannon({ url, connections: 128, duration: seconds, workers: 8, headers }).then((r) => ok(r, seconds));
const invalidLoad = (base, seconds = 5) => autocannon({ url: base + '/auth/sign-in', method: 'POST', connections: 128, duration: seconds, workers: 8, headers: { 'content-type': 'application/json' }, body: '{}' }).then((r) => ({ rps: r['4xx'] / seconds, p99: r.latency.p99 }));
const signInLoad = (base, seconds = 6) => autocannon({ url: base + '/auth/sign-in', method: 'POST', connections: 4 * CORES, duration: seconds, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: USER.email, password: USER.password }) }).then((r) => ok(r, seconds));
const refreshLoad = (base, chains, seconds = 6) => autocannon({ url: base, connections: 64, duration: seconds, requests: [{ method: 'POST', path: '/auth/refresh', headers: { 'content-type': 'application/json' },
  setupRequest: (rq, ctx) => { ctx.token = chains.pop(); return { ...rq, body: JSON.stringify({ refreshtoken: ctx.token }) }; },
  onResponse: (status, body, ctx) => { const next = status === 200 ? JSON.parse(body).data.refreshtoken : ctx.token; if (next !== undefined) chains.push(next); } }] }).then((r) => ok(r, seconds));
const ENV = { NODE_ENV: 'development', STORAGE: 'lmdb', LOG_LEVEL: 'info', RATE_LIMIT_MAX: '1000000', THROTTLE_MAX_FAILURES: '1000', SESSIONS_MAX_PER_ACCOUNT: '1000' };
const argon2 = JSON.stringify(req.resolve('argon2'));
const raw = async () => Number((await promisify(execFile)(process.execPath, ['-e', `const a=require(${argon2});(async()=>{const h=await a.hash('x',{type:2,memoryCost:19456,timeCost:2,parallelism:1});const end=performance.now()+5000;let n=0;const t=performance.now();await Promise.all(Array.from({length:${CORES}},async()=>{while(performance.now()<end){await a.verify(h,'x');n++}}));console.log(n/((performance.now()-t)/1000))})()`], { env: { ...process.env, UV_THREADPOOL_SIZE: String(CORES + 4) } })).stdout.trim());
const fastify = JSON.stringify(req.resolve('fastify'));
// A file, not `node -e`: a cluster worker re-runs its primary's script, which `-e` does not leave.
const BARE = '/tmp/bare-server.cjs';
const bareCode = `const c=require('node:cluster');const n=+process.env.WORKERS;if(c.isPrimary&&n>1){for(let i=0;i<n;i++)c.fork();process.on('SIGTERM',()=>{for(const w of Object.values(c.workers))w.process.kill();process.exit(0)})}else{const f=require(${fastify})({logger:false});const b=process.env.B;f.get('/auth/me',async(q,r)=>r.code(200).header('content-type','application/json; charset=utf-8').send(b));f.listen({port:+process.env.PORT,host:'127.0.0.1'})}`;
writeFileSync(BARE, bareCode);
console.log(`cores ${CORES}, node ${process.version}, WORKERS ${MANY} against 1`);
const rows = [];
let meBody = '{}';
const ROUNDS = Number(process.env.ROUNDS ?? 2);
for (let round = 0; round < ROUNDS; round++) {
  for (const workers of [1, MANY]) {
    const s = await startProc(['dist/start.cjs'], { ...ENV, DATA_DIR: mkdtempSync('/tmp/d'), WORKERS: String(workers) });
    if ((await post(s.base, '/auth/sign-up', USER)).status !== 201) throw new Error('sign-up');
    const sessions = [];
    for (let i = 0; i < 129; i++) sessions.push((await post(s.base, '/auth/sign-in', { email: USER.email, password: USER.password })).body.data);
    const headers = { authorization: `Bearer ${sessions[0].accesstoken}` };
    meBody = await (await fetch(s.base + '/auth/me', { headers })).text();
    await getLoad(s.base + '/auth/me', headers, 2);
    const me = await getLoad(s.base + '/auth/me', headers);
    const refresh = await refreshLoad(s.base, sessions.slice(1, 65).map((x) => x.refreshtoken));
    const invalid = await invalidLoad(s.base);
    const signIn = await signInLoad(s.base);
    await s.stop();
    const bare = await startProc([BARE], { B: meBody, WORKERS: String(workers) });
    await getLoad(bare.base + '/auth/me', {}, 2);
    const bareMe = await getLoad(bare.base + '/auth/me', {});
    await bare.stop();
    const row = { round, workers, me, refresh, invalid, signIn, bareMe };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
  rows.push({ round, raw: await raw() });
  console.log(`raw argon2id ceiling (concurrency ${CORES}, pool ${CORES + 4}): ${rows.at(-1).raw.toFixed(1)}/s`);
}
const mean = (xs) => xs.reduce((a, x) => a + x, 0) / xs.length;
const rawMean = mean(rows.filter((r) => r.raw).map((r) => r.raw));
const bare1 = mean(rows.filter((r) => r.workers === 1).map((r) => r.bareMe.rps));
for (const workers of [1, MANY]) {
  const of = rows.filter((r) => r.workers === workers);
  const m = (f) => mean(of.map(f));
  console.log(`WORKERS ${workers}: me ${m((r) => r.me.rps).toFixed(0)}/s, bare (same processes) ${m((r) => r.bareMe.rps).toFixed(0)}/s, bare (one process) ${bare1.toFixed(0)}/s -> me/bare ${(m((r) => r.me.rps) / Math.max(bare1, m((r) => r.bareMe.rps))).toFixed(3)}; refresh ${m((r) => r.refresh.rps).toFixed(0)}/s (p99 ${m((r) => r.refresh.p99).toFixed(1)} ms) -> /bare ${(m((r) => r.refresh.rps) / Math.max(bare1, m((r) => r.bareMe.rps))).toFixed(3)}; 400 path ${m((r) => r.invalid.rps).toFixed(0)}/s; sign-in ${m((r) => r.signIn.rps).toFixed(1)}/s = ${(m((r) => r.signIn.rps) / rawMean).toFixed(3)} of raw ${rawMean.toFixed(1)}/s (p99 ${m((r) => r.signIn.p99).toFixed(0)} ms, non-2xx ${m((r) => r.signIn.non2xx).toFixed(0)})`);
}
process.exit(0);
