import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Dialog } from 'antd-mobile';
import { describe, expect, it, vi } from 'vitest';
import { reloadSession, saveSession } from '@/lib/session';
import { envelope, renderPage } from '@/test/render';
import { useScreenTest } from '@/test/screen';
import BankCardPage from './BankCardPage';
import CreditRulePage from './CreditRulePage';
import RealNamePage from './RealNamePage';
import UserCenterPage from './UserCenterPage';
import WithCardPage from './WithCardPage';

const unverified = { status: 'unverified', name: '', idNumberMasked: '', frontFileId: '', backFileId: '', remark: '' };
const verified = { status: 'verified', name: 'Wang Hsiao-ming', idNumberMasked: 'A12****789', frontFileId: 'f1', backFileId: 'f2', remark: '', submittedAt: '2026-01-02T01:00:00Z', reviewedAt: '2026-01-02T02:00:00Z' };
const card = { id: 'c1', holderName: 'Wang Hsiao-ming', bankName: 'Bank of Taiwan', branch: 'Head office', bankCode: '004', cardNumberMasked: '**** 6789', last4: '6789', ifsc: '', upi: '', boundAt: '2026-01-02T03:00:00Z' };
const info = {
  account: '0912345678',
  role: 'member',
  realNameStatus: 'pending',
  inviteCode: 'ABC',
  fundPasswordSet: true,
  creditScore: 95,
  flags: [],
  assets: { total: '1000', available: '1000', frozen: '0', profit: '0', usd: '31.25' },
};

// Typing into several fields is slow on a busy machine.
const SLOW = 30_000;

const ctx = useScreenTest({ account: '0912345678', objectUrls: true });

const png = (name: string) => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, name.length])], name, { type: 'image/png' });
const body = (url: string) => JSON.parse(ctx.server.calls.find((c) => c.url === url)!.init.body as string) as unknown;

describe('real-name verification', () => {
  it('validates name, ID number (check digit) and both photos, then submits', async () => {
    const user = userEvent.setup();
    let submitted = false;
    ctx.server.on('/api/vue/user/realname', () => {
      if (ctx.server.calls.at(-1)!.init.method !== 'POST') return envelope(submitted ? { ...verified, status: 'pending', name: '王小明' } : unverified);
      submitted = true;
      return envelope({ status: 'pending', position: 7 }, 1, 'realname_submitted');
    });
    let n = 0;
    ctx.server.on('/api/vue/files', () => envelope({ id: `file${++n}` }));
    renderPage('/user/bandCard', RealNamePage);
    await screen.findByTestId('realname-form');
    expect(screen.getByTestId('realname-status')).toHaveAttribute('data-status', 'unverified');
    const error = () => screen.getByTestId('form-error');
    await user.click(screen.getByTestId('realname-submit'));
    expect(error()).toHaveTextContent('請輸入姓名');
    await user.type(screen.getByTestId('realname-name'), '王');
    await user.click(screen.getByTestId('realname-submit'));
    expect(error()).toHaveTextContent('請輸入與身分證相同的姓名');
    await user.type(screen.getByTestId('realname-name'), '小明');
    await user.click(screen.getByTestId('realname-submit'));
    expect(error()).toHaveTextContent('請輸入身分證字號');
    await user.type(screen.getByTestId('realname-id'), 'a12345678-8');
    expect(screen.getByTestId('realname-id')).toHaveValue('A123456788');
    await user.click(screen.getByTestId('realname-submit'));
    expect(error()).toHaveTextContent('身分證字號格式錯誤');
    await user.clear(screen.getByTestId('realname-id'));
    await user.type(screen.getByTestId('realname-id'), 'A123456789');
    await user.click(screen.getByTestId('realname-submit'));
    expect(error()).toHaveTextContent('請上傳身分證正反面照片');
    expect(ctx.server.calls.filter((c) => c.url === '/api/vue/user/realname' && c.init.method === 'POST')).toHaveLength(0);

    await user.upload(screen.getByTestId('realname-front').querySelector('input[type=file]') as HTMLInputElement, png('front.png'));
    await user.upload(screen.getByTestId('realname-back').querySelector('input[type=file]') as HTMLInputElement, png('back.png'));
    await waitFor(() => expect(ctx.server.calls.filter((c) => c.url === '/api/vue/files')).toHaveLength(2));
    await user.click(screen.getByTestId('realname-submit'));
    await waitFor(() => expect(ctx.shown).toContain('已提交，等待審核'));
    const post = ctx.server.calls.find((c) => c.url === '/api/vue/user/realname' && c.init.method === 'POST')!;
    expect(JSON.parse(post.init.body as string)).toEqual({ name: '王小明', idNumber: 'A123456789', frontFileId: 'file1', backFileId: 'file2' });
    expect(post.init.headers['Idempotency-Key']).toBeTruthy();
    // The status is read again (after the command's position): under review, no form.
    await waitFor(() => expect(screen.getByTestId('realname-status')).toHaveAttribute('data-status', 'pending'));
    expect(screen.queryByTestId('realname-form')).toBeNull();
  }, SLOW);

  it('shows the reason of a rejection with the form to submit again', async () => {
    ctx.server.on('/api/vue/user/realname', () => envelope({ ...verified, status: 'rejected', remark: 'photo blurry' }));
    renderPage('/user/bandCard', RealNamePage);
    expect(await screen.findByTestId('realname-remark')).toHaveTextContent('photo blurry');
    expect(screen.getByTestId('realname-badge')).toHaveTextContent('未通過');
    expect(screen.getByTestId('realname-submit')).toHaveTextContent('重新送出');
  });

  it('shows the masked ID number once verified, and no form', async () => {
    ctx.server.on('/api/vue/user/realname', () => envelope(verified));
    renderPage('/user/bandCard', RealNamePage);
    expect(await screen.findByTestId('realname-id-masked')).toHaveTextContent('A12****789');
    expect(screen.getByTestId('realname-badge')).toHaveTextContent('已認證');
    expect(screen.queryByTestId('realname-form')).toBeNull();
  });
});

describe('bank cards', () => {
  it('asks for verification first', async () => {
    ctx.server.on('/api/vue/user/realname', () => envelope({ ...verified, status: 'pending' }));
    renderPage('/user/WithCard', WithCardPage);
    const gate = await screen.findByTestId('card-needs-verification');
    expect(gate).toHaveTextContent('實名認證審核中');
    expect(screen.getByTestId('card-go-verify')).toHaveAttribute('href', '/user/bandCard');
    expect(screen.queryByTestId('card-form')).toBeNull();
  });

  it('validates the card as the ctx.server does, with the verified name as holder', async () => {
    const user = userEvent.setup();
    ctx.server.on('/api/vue/user/realname', () => envelope(verified));
    ctx.server.on('/api/vue/user/cards', () => envelope({ id: 'c2', last4: '5678', position: 9 }));
    renderPage('/user/WithCard', WithCardPage);
    await screen.findByTestId('card-form');
    expect(screen.getByTestId('card-holderName')).toHaveValue('Wang Hsiao-ming');
    const error = () => screen.getByTestId('form-error');
    await user.click(screen.getByTestId('card-submit'));
    expect(error()).toHaveTextContent('請填寫完整的銀行卡資料');
    // Taiwan's terms: the bank from the list, a 4-digit branch code; no IFSC or UPI unless enabled.
    expect(screen.queryByTestId('card-ifsc')).toBeNull();
    expect(screen.queryByTestId('card-upi')).toBeNull();
    await user.selectOptions(screen.getByTestId('card-bankCode'), '004');
    expect(screen.getByTestId('card-bankCode')).toHaveDisplayValue('004 臺灣銀行');
    await user.type(screen.getByTestId('card-branch'), '營業0a37');
    expect(screen.getByTestId('card-branch')).toHaveValue('037');
    await user.type(screen.getByTestId('card-cardNumber'), '1234-5678x9');
    expect(screen.getByTestId('card-cardNumber')).toHaveValue('1234-56789');
    await user.click(screen.getByTestId('card-submit'));
    expect(error()).toHaveTextContent('分行代碼須為 4 位數字');
    await user.type(screen.getByTestId('card-branch'), '7');
    await user.click(screen.getByTestId('card-submit'));
    expect(error()).toHaveTextContent('卡號須為 10 至 16 位數字');
    await user.type(screen.getByTestId('card-cardNumber'), '0');
    await user.clear(screen.getByTestId('card-holderName'));
    await user.type(screen.getByTestId('card-holderName'), 'Someone Else');
    await user.click(screen.getByTestId('card-submit'));
    expect(error()).toHaveTextContent('持卡人須為實名認證本人');
    await user.clear(screen.getByTestId('card-holderName'));
    await user.type(screen.getByTestId('card-holderName'), 'wang hsiao-ming');
    await user.click(screen.getByTestId('card-submit'));
    await waitFor(() => expect(ctx.shown).toContain('銀行卡已綁定'));
    expect(body('/api/vue/user/cards')).toEqual({
      holderName: 'wang hsiao-ming',
      branch: '0377',
      cardNumber: '1234567890',
      bankCode: '004',
    });
  }, SLOW);

  it('shows IFSC and UPI only when ops enable them for a withdrawal channel', async () => {
    const user = userEvent.setup();
    ctx.server.on('/api/vue/realname', () => envelope(verified));
    ctx.server.on('/api/vue/user/realname', () => envelope(verified));
    ctx.server.on('/api/vue/common/config', () => envelope([{ name: 'withdrawal.bank.cardFields', value: 'ifsc' }]));
    ctx.server.on('/api/vue/user/cards', () => envelope({ id: 'c3', last4: '7890', position: 10 }));
    renderPage('/user/WithCard', WithCardPage);
    await screen.findByTestId('card-ifsc');
    expect(screen.queryByTestId('card-upi')).toBeNull();
    await user.selectOptions(screen.getByTestId('card-bankCode'), '822');
    await user.type(screen.getByTestId('card-branch'), '0901');
    await user.type(screen.getByTestId('card-cardNumber'), '1234567890');
    await user.type(screen.getByTestId('card-ifsc'), 'sbin0001234');
    await user.click(screen.getByTestId('card-submit'));
    await waitFor(() => expect(ctx.shown).toContain('銀行卡已綁定'));
    expect(body('/api/vue/user/cards')).toMatchObject({ bankCode: '822', branch: '0901', ifsc: 'SBIN0001234' });
  }, SLOW);

  it('lists cards masked and unbinds after confirmation', async () => {
    const user = userEvent.setup();
    ctx.server.on('/api/vue/user/cards/c1', () => envelope({ position: 12 }, 1, 'card_unbound'));
    ctx.server.on('/api/vue/user/cards', () => envelope([card]));
    renderPage('/user/BankCard', BankCardPage);
    const item = await screen.findByTestId('bank-card');
    expect(within(item).getByTestId('bank-card-number')).toHaveTextContent('**** 6789');
    // The kit's dialog is imperative: the test sees what it asks and answers it.
    let asked: Parameters<typeof Dialog.confirm>[0] | undefined;
    vi.spyOn(Dialog, 'confirm').mockImplementation((p) => {
      asked = p;
      return Promise.resolve(true);
    });
    await user.click(within(item).getByTestId('bank-card-unbind'));
    expect(asked?.content).toBe('確定解除綁定 Bank of Taiwan 尾號 6789 的銀行卡？');
    expect(ctx.server.calls.some((c) => c.init.method === 'DELETE')).toBe(false);
    await asked?.onConfirm?.();
    await waitFor(() => expect(ctx.shown).toContain('已解除綁定'));
    const del = ctx.server.calls.find((c) => c.init.method === 'DELETE')!;
    expect(del.url).toBe('/api/vue/user/cards/c1');
    expect(del.init.headers['Idempotency-Key']).toBeTruthy();
  }, SLOW);

  it('shows the empty state', async () => {
    ctx.server.on('/api/vue/user/cards', () => envelope([]));
    renderPage('/user/BankCard', BankCardPage);
    expect(await screen.findByTestId('list-empty')).toHaveTextContent('尚未綁定銀行卡');
  });
});

describe('mine and the credit rule', () => {
  it('shows the badge, the credit score, the USD amount and the money buttons', async () => {
    ctx.server.on('/api/vue/user/info', () => envelope(info));
    renderPage('/user/usercenter', UserCenterPage);
    await waitFor(() => expect(screen.getByTestId('verification-badge')).toHaveAttribute('data-status', 'pending'));
    expect(screen.getByTestId('verification-badge')).toHaveTextContent('審核中');
    expect(screen.getByTestId('user-credit-score')).toHaveTextContent('95 分');
    expect(screen.getByTestId('asset-usd')).toHaveTextContent('31.25');
    for (const id of ['usercenter-withdraw', 'usercenter-exchange', 'menu-bank-cards', 'menu-realname', 'menu-exchange', 'menu-credit']) expect(screen.getByTestId(id)).toBeInTheDocument();
  });

  it('shows a member no ops menus even when the browser stores role=ops', async () => {
    localStorage.setItem('role', 'ops');
    reloadSession();
    ctx.server.on('/api/vue/user/info', () => envelope(info));
    renderPage('/user/usercenter', UserCenterPage);
    await screen.findByTestId('menu-bank-cards');
    for (const id of ['menu-ops-realname', 'menu-ops-deposits', 'menu-ops-withdrawals', 'menu-audit']) expect(screen.queryByTestId(id)).toBeNull();
  });

  it('hides the member money entries from ops and shows the review queues', async () => {
    saveSession({ token: 'tok', account: 'ops' });
    ctx.server.on('/api/vue/user/info', () => envelope({ ...info, account: 'ops', role: 'ops' }));
    renderPage('/user/usercenter', UserCenterPage);
    await screen.findByTestId('menu-ops-realname');
    expect(screen.getByTestId('menu-ops-withdrawals')).toBeInTheDocument();
    expect(screen.queryByTestId('usercenter-withdraw')).toBeNull();
    expect(screen.queryByTestId('menu-bank-cards')).toBeNull();
  });

  it('publishes the rule and lists every change with its reason', async () => {
    ctx.server.on('/api/vue/user/creditRule', () =>
      envelope({ score: 95, start: 100, min: 0, max: 100, withdrawThreshold: 60, changes: [{ reason: 'deposit_approved', delta: 1 }, { reason: 'deposit_rejected', delta: -5 }] }),
    );
    ctx.server.on('/api/vue/funds/records', () =>
      envelope({
        items: [{ orderNo: 'credit-9', type: 'credit', currency: '', amount: '-5', status: 'completed', remark: 'deposit_rejected', channelName: '', proofFileId: '', creditScore: 95, createdAt: '2026-01-02T01:00:00Z', updatedAt: '2026-01-02T01:00:00Z' }],
        page: 1,
        hasMore: false,
      }),
    );
    renderPage('/user/creditRule', CreditRulePage);
    expect(await screen.findByTestId('credit-score')).toHaveTextContent('95');
    expect(screen.getByTestId('credit-threshold')).toHaveTextContent('至少 60 分');
    expect(screen.getByTestId('credit-rule-deposit_approved')).toHaveTextContent('+1 分');
    expect(screen.getByTestId('credit-rule-deposit_rejected')).toHaveTextContent('-5 分');
    const change = await screen.findByTestId('credit-change');
    expect(change).toHaveTextContent('儲值審核駁回');
    expect(change).toHaveTextContent('變動後 95 分');
    expect(ctx.server.calls.some((c) => c.url === '/api/vue/funds/records?type=credit&page=1&size=50')).toBe(true);
  });
});
