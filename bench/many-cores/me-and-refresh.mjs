// GET /auth/me, refresh (64 chains, durable) and a bare route with the same bytes, on the many-core machine: the
// session's starting build (dist-base) against the current one (dist), each twice, interleaved.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { SVC, startProc } from './device-service.mjs';
import { cpus } from 'node:os';
const req = createRequire(SVC + '/package.json');
const autocannon = createRequire('/opt/b/load/package.json')('autocannon');
const cpuMs = (pid, tid = pid) => { const f = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const procCpuMs = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const USER = { name: 'Bench', lastname: 'Mark', email: 'bench@example.com', password: 'correct horse battery staple' };
const post = (base, path, body) => fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() }));
async function measure(pid, run) {
  const c0 = procCpuMs(pid), l0 = cpuMs(pid);
  const r = await run();
  return { ...r, cpuUsPerOk: ((procCpuMs(pid) - c0) * 1000) / r.ok, loopUsPerOk: ((cpuMs(pid) - l0) * 1000) / r.ok };
}
const meLoad = (base, headers) => autocannon({ url: base + '/auth/me', connections: 64, duration: 8, workers: 4, headers }).then((r) => ({ rps: r['2xx'] / 8, ok: r['2xx'], non2xx: r.non2xx, p99: r.latency.p99 }));
const refreshLoad = (base, chains) => autocannon({ url: base, connections: 64, duration: 8, requests: [{ method: 'POST', path: '/auth/refresh', headers: { 'content-type': 'application/json' },
  setupRequest: (rq, ctx) => { ctx.token = chains.pop(); return { ...rq, body: JSON.stringify({ refreshtoken: ctx.token }) }; },
  onResponse: (status, body, ctx) => { const next = status === 200 ? JSON.parse(body).data.refreshtoken : ctx.token; if (next !== undefined) chains.push(next); } }] })
  .then((r) => ({ rps: r['2xx'] / 8, ok: r['2xx'], non2xx: r.non2xx, p99: r.latency.p99 }));
console.log(`cores ${cpus().length}, node ${process.version}`);
let meBody = '{}';
const rows = [];
for (let round = 0; round < 2; round++) {
  for (const [label, entry] of [['base', 'dist-base/start.cjs'], ['new', 'dist/start.cjs']]) {
    const { p, base } = await startProc([entry], { NODE_ENV: 'development', DATA_DIR: mkdtempSync('/tmp/d'), STORAGE: 'lmdb', LOG_LEVEL: 'info', RATE_LIMIT_MAX: '1000000', THROTTLE_MAX_FAILURES: '1000', SESSIONS_MAX_PER_ACCOUNT: '1000' });
    if ((await post(base, '/auth/sign-up', USER)).status !== 201) throw new Error('sign-up');
    const sessions = [];
    for (let i = 0; i < 129; i++) sessions.push((await post(base, '/auth/sign-in', { email: USER.email, password: USER.password })).body.data);
    const headers = { authorization: `Bearer ${sessions[0].accesstoken}` };
    meBody = await (await fetch(base + '/auth/me', { headers })).text();
    await refreshLoad(base, sessions.slice(65).map((s) => s.refreshtoken)).catch(() => null);
    const me = await measure(p.pid, () => meLoad(base, headers));
    const refresh = await measure(p.pid, () => refreshLoad(base, sessions.slice(1, 65).map((s) => s.refreshtoken)));
    rows.push({ round, label, me, refresh });
    console.log(`${label} r${round}: GET /auth/me ${me.rps.toFixed(0)}/s (loop ${me.loopUsPerOk.toFixed(1)} us, all threads ${me.cpuUsPerOk.toFixed(1)} us, p99 ${me.p99} ms, non2xx ${me.non2xx}) | refresh ${refresh.rps.toFixed(0)}/s (loop ${refresh.loopUsPerOk.toFixed(1)} us, all ${refresh.cpuUsPerOk.toFixed(1)} us, p99 ${refresh.p99} ms, non2xx ${refresh.non2xx})`);
    p.kill('SIGTERM'); await new Promise((r) => p.on('exit', r));
  }
  const fastify = JSON.stringify(req.resolve('fastify'));
  const bare = await startProc(['-e', `const f=require(${fastify})({logger:false});const b=process.env.B;f.get('/auth/me',async(q,r)=>r.code(200).header('content-type','application/json; charset=utf-8').send(b));f.listen({port:+process.env.PORT,host:'127.0.0.1'})`], { B: meBody });
  const b = await measure(bare.p.pid, () => meLoad(bare.base, {}));
  console.log(`bare r${round}: same bytes ${b.rps.toFixed(0)}/s (loop ${b.loopUsPerOk.toFixed(1)} us)`);
  rows.push({ round, label: 'bare', me: b });
  bare.p.kill();
}
const med = (label, f) => { const xs = rows.filter((r) => r.label === label).map(f); return xs.reduce((a, x) => a + x, 0) / xs.length; };
const bareRps = med('bare', (r) => r.me.rps);
for (const label of ['base', 'new']) console.log(`${label}: me/bare ${(med(label, (r) => r.me.rps) / bareRps).toFixed(3)}, refresh/bare ${(med(label, (r) => r.refresh.rps) / bareRps).toFixed(3)} (refresh ${med(label, (r) => r.refresh.rps).toFixed(0)}/s, bare ${bareRps.toFixed(0)}/s)`);
process.exit(0);
