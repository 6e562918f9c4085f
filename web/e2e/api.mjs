// Setting up data through the HTTP API (not the screens) for browser tests that are about
// something else: a member with money, orders, records.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { DEMO, proofPng } from './harness.mjs';

/** One call to the API, as the app makes it (envelope checked); resolves with data. */
export async function call(base, method, path, { body, session, form } = {}) {
  const headers = { Accept: 'application/json' };
  if (session) Object.assign(headers, { token: session.token, account: session.account });
  if (method !== 'GET') headers['Idempotency-Key'] = randomUUID();
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${base}${path}`, { method, headers, body: form ?? (body === undefined ? undefined : JSON.stringify(body)) });
  const env = await res.json();
  assert.equal(env.status, 1, `${method} ${path}: HTTP ${res.status} ${JSON.stringify(env)}`);
  return env.data;
}

/** Registers the member and has ops approve one deposit of each amount (TWD); resolves with the session. */
export async function memberWithBalance(base, member, amounts) {
  const reg = await call(base, 'POST', '/api/vue/user/register', {
    body: { account: member.account, password: member.password, confirmPassword: member.password, inviteCode: 'LOTBOOK' },
  });
  const session = { token: reg.token, account: reg.account };
  const ops = await call(base, 'POST', '/api/vue/user/login', { body: { account: DEMO.ops.account, password: DEMO.ops.password } });
  for (const amount of amounts) {
    const form = new FormData();
    form.append('file', new Blob([proofPng()], { type: 'image/png' }), 'proof.png');
    const file = await call(base, 'POST', '/api/vue/files', { session, form });
    const dep = await call(base, 'POST', '/api/vue/funds/deposits', { session, body: { channelId: 'bank', amount, proofFileId: file.id, channelPassword: '8888' } });
    await call(base, 'POST', `/api/vue/ops/deposits/${dep.orderNo}/approve`, { session: ops, body: {} });
  }
  return session;
}
