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

let idSeq = 0;

/** A fresh valid Taiwan ID number (check digit computed) that no other member of the run holds. */
export function freshTaiwanID() {
  idSeq += 1;
  const digits = `2${String((Date.now() % 1e5) * 100 + (idSeq % 100)).padStart(7, '0')}`.slice(0, 8);
  // Letter F is 15: its two digits weigh 1 and 9; the eight digits weigh 8 down to 1.
  let sum = 1 + 5 * 9;
  for (let i = 0; i < 8; i++) sum += Number(digits[i]) * (8 - i);
  return `F${digits}${(10 - (sum % 10)) % 10}`;
}

/** A member with money (memberWithBalance) whose real name ops approved: they may subscribe to new shares. */
export async function verifiedMember(base, member, amounts) {
  const session = await memberWithBalance(base, member, amounts);
  const photo = async () => {
    const form = new FormData();
    form.append('file', new Blob([proofPng()], { type: 'image/png' }), 'id.png');
    return (await call(base, 'POST', '/api/vue/files', { session, form })).id;
  };
  await call(base, 'POST', '/api/vue/user/realname', {
    session, body: { name: '王小明', idNumber: freshTaiwanID(), frontFileId: await photo(), backFileId: await photo() },
  });
  const ops = await call(base, 'POST', '/api/vue/user/login', { body: { account: DEMO.ops.account, password: DEMO.ops.password } });
  await call(base, 'POST', `/api/vue/ops/realname/${member.account}/approve`, { session: ops, body: {} });
  return { session, ops };
}
