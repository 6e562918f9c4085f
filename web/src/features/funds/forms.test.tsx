import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { envelope, renderPage } from '@/test/render';
import { useScreenTest } from '@/test/screen';
import FundingDetailsPage from './FundingDetailsPage';
import RechargeChannelPage from './RechargeChannelPage';
import RechargePage from './RechargePage';

const bank = {
  id: 'bank',
  name: 'Bank transfer',
  currency: 'TWD',
  min: '1000',
  max: '1000000',
  window: { weekdays: [1, 2, 3, 4, 5], open: '09:30', close: '19:30', tz: 'Asia/Taipei', closedOnHolidays: true, alwaysOpen: false },
  openNow: true,
  payee: { bank: '', branch: '', account: '', name: '' },
};

const ctx = useScreenTest({ account: '0912345678' });

describe('deposit channels', () => {
  it('lists channels with their rules', async () => {
    ctx.server.on('/api/vue/funds/channels', () => envelope([bank, { ...bank, id: 'demo', name: 'Demo', openNow: false, window: { ...bank.window, alwaysOpen: true } }]));
    renderPage('/user/recharge', RechargePage);
    const cards = await screen.findAllByTestId(/^channel-(bank|demo)$/);
    expect(cards).toHaveLength(2);
    expect(cards[0]).toHaveTextContent('TWD 1,000.00');
    expect(cards[0]).toHaveTextContent('1,000,000.00');
    expect(cards[0]).toHaveTextContent('週一–週五 09:30–19:30');
    expect(cards[0]).toHaveTextContent('國定假日休息');
    expect(cards[1]).toHaveTextContent('示範環境：全天開放');
    expect(cards[1]).toHaveTextContent('服務中');
    // The demo's channel in the screen's language; a channel named by ops as named.
    expect(within(cards[0]!).getByTestId('channel-name')).toHaveTextContent(/^銀行轉帳$/);
    expect(within(cards[1]!).getByTestId('channel-name')).toHaveTextContent(/^Demo$/);
  });

  it('shows the empty state', async () => {
    ctx.server.on('/api/vue/funds/channels', () => envelope([]));
    renderPage('/user/recharge', RechargePage);
    expect(await screen.findByTestId('list-empty')).toHaveTextContent('目前沒有可用的儲值管道');
  });
});

describe('deposit form', () => {
  it("shows the channel's payee: bank, branch, account number and holder", async () => {
    const payee = { bank: '台灣銀行', branch: '館前分行', account: '004-12345678', name: '樂簿股份有限公司' };
    ctx.server.on('/api/vue/funds/channels', () => envelope([{ ...bank, payee }]));
    renderPage('/user/rechargeChannel', RechargeChannelPage, { url: '/user/rechargeChannel?id=bank' });
    const box = await screen.findByTestId('payee');
    expect(box).toHaveTextContent('匯款帳戶');
    expect(within(box).getByTestId('payee-bank')).toHaveTextContent('台灣銀行');
    expect(within(box).getByTestId('payee-branch')).toHaveTextContent('館前分行');
    expect(within(box).getByTestId('payee-account')).toHaveTextContent('004-12345678');
    expect(within(box).getByTestId('payee-name')).toHaveTextContent('樂簿股份有限公司');
  });

  it('shows no payee box for a channel that names none', async () => {
    ctx.server.on('/api/vue/funds/channels', () => envelope([bank]));
    renderPage('/user/rechargeChannel', RechargeChannelPage, { url: '/user/rechargeChannel?id=bank' });
    await screen.findByTestId('deposit-form');
    expect(screen.queryByTestId('payee')).toBeNull();
  });

  it('checks min and max and the proof before sending', async () => {
    const user = userEvent.setup();
    ctx.server.on('/api/vue/funds/channels', () => envelope([bank]));
    renderPage('/user/rechargeChannel', RechargeChannelPage, { url: '/user/rechargeChannel?id=bank' });
    await screen.findByTestId('deposit-form');
    await user.click(screen.getByTestId('deposit-submit'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('請輸入金額');
    await user.type(screen.getByTestId('deposit-amount'), '999.99');
    await user.click(screen.getByTestId('deposit-submit'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('金額低於最低限額');
    await user.clear(screen.getByTestId('deposit-amount'));
    await user.type(screen.getByTestId('deposit-amount'), '1000000.01');
    await user.click(screen.getByTestId('deposit-submit'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('金額高於最高限額');
    await user.clear(screen.getByTestId('deposit-amount'));
    await user.type(screen.getByTestId('deposit-amount'), 'x5,000');
    expect(screen.getByTestId('deposit-amount')).toHaveValue('5000');
    await user.click(screen.getByTestId('deposit-submit'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('請先上傳儲值憑證');
    expect(ctx.server.calls.map((c) => c.url)).toEqual(['/api/vue/funds/channels']);
  });

  it('uploads the proof, then sends the deposit with it', async () => {
    const user = userEvent.setup();
    ctx.server.on('/api/vue/funds/channels', () => envelope([bank]));
    ctx.server.on('/api/vue/files', () => envelope({ id: 'f00d' }));
    ctx.server.on('/api/vue/funds/deposits', () => envelope({ orderNo: 'D1', status: 'pending', position: 5 }));
    const objectUrl = vi.fn(() => 'blob:preview');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: objectUrl, revokeObjectURL: vi.fn() }));
    renderPage('/user/rechargeChannel', RechargeChannelPage, { url: '/user/rechargeChannel?id=bank' });
    await screen.findByTestId('deposit-form');
    await user.type(screen.getByTestId('deposit-amount'), '5000');
    const input = screen.getByTestId('deposit-proof').querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(input, new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'proof.png', { type: 'image/png' }));
    await waitFor(() => expect(ctx.server.calls.some((c) => c.url === '/api/vue/files')).toBe(true));
    await user.type(screen.getByTestId('deposit-channel-password'), '8888');
    await user.click(screen.getByTestId('deposit-submit'));
    expect(await screen.findByTestId('landed')).toHaveTextContent('/user/FundingDetails');
    const dep = ctx.server.calls.find((c) => c.url === '/api/vue/funds/deposits')!;
    expect(JSON.parse(dep.init.body as string)).toEqual({ channelId: 'bank', amount: '5000', proofFileId: 'f00d', channelPassword: '8888' });
    expect(dep.init.headers['Idempotency-Key']).toBeTruthy();
    expect(ctx.shown).toContain('已送出，等待審核');
  });

  it('asks for another proof when the ctx.server says this one backs another deposit', async () => {
    const user = userEvent.setup();
    ctx.server.on('/api/vue/funds/channels', () => envelope([bank]));
    ctx.server.on('/api/vue/files', () => envelope({ id: 'f00d' }));
    ctx.server.on('/api/vue/funds/deposits', () => envelope(null, 0, 'deposit_proof_used', 422));
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:preview'), revokeObjectURL: vi.fn() }));
    renderPage('/user/rechargeChannel', RechargeChannelPage, { url: '/user/rechargeChannel?id=bank' });
    await screen.findByTestId('deposit-form');
    await user.type(screen.getByTestId('deposit-amount'), '5000');
    const input = screen.getByTestId('deposit-proof').querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(input, new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'proof.png', { type: 'image/png' }));
    await waitFor(() => expect(screen.getByTestId('deposit-proof').querySelector('.adm-image-uploader-cell-image')).not.toBeNull());
    await user.type(screen.getByTestId('deposit-channel-password'), '8888');
    await user.click(screen.getByTestId('deposit-submit'));
    expect(await screen.findByTestId('form-error')).toHaveTextContent('此憑證已用於其他儲值申請');
    expect(screen.getByTestId('deposit-proof').querySelector('.adm-image-uploader-cell-image')).toBeNull();
    // Without a new proof the form refuses locally.
    await user.click(screen.getByTestId('deposit-submit'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('請先上傳儲值憑證');
  });

  it('refuses when the window is closed', async () => {
    const user = userEvent.setup();
    ctx.server.on('/api/vue/funds/channels', () => envelope([{ ...bank, openNow: false }]));
    renderPage('/user/rechargeChannel', RechargeChannelPage, { url: '/user/rechargeChannel?id=bank' });
    await screen.findByTestId('deposit-form');
    await user.type(screen.getByTestId('deposit-amount'), '5000');
    await user.click(screen.getByTestId('deposit-submit'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('目前非儲值時段');
  });
});

describe('fund records', () => {
  it('shows loading, then the records of the stored-value tab', async () => {
    ctx.server.on('/api/vue/funds/records', () =>
      envelope({
        items: [
          { orderNo: 'D1', type: 'deposit', currency: 'TWD', amount: '5000', status: 'approved', remark: '', channelName: 'Bank transfer', proofFileId: 'f', createdAt: '2026-01-02T01:00:00Z', updatedAt: '2026-01-02T01:00:00Z' },
          { orderNo: 'D2', type: 'deposit', currency: 'TWD', amount: '1200.5', status: 'rejected', remark: 'blurry', channelName: 'Bank transfer', proofFileId: 'g', createdAt: '2026-01-02T02:00:00Z', updatedAt: '2026-01-02T02:00:00Z' },
        ],
        page: 1,
        hasMore: false,
      }),
    );
    renderPage('/user/FundingDetails', FundingDetailsPage);
    expect(screen.getByTestId('list-loading')).toBeInTheDocument();
    const items = await screen.findAllByTestId('fund-record');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('TWD 5,000.00');
    expect(items[0]).toHaveTextContent('已通過');
    expect(items[0]).toHaveTextContent('2026-01-02 09:00:00');
    expect(items[0]).toHaveTextContent('管道銀行轉帳');
    expect(items[1]).toHaveTextContent('blurry');
    expect(ctx.server.calls[0]!.url).toBe('/api/vue/funds/records?type=deposit&page=1&size=20');
  });

  it('shows the empty state on the withdrawal tab', async () => {
    const user = userEvent.setup();
    ctx.server.on('/api/vue/funds/records', () => envelope({ items: [], page: 1, hasMore: false }));
    renderPage('/user/FundingDetails', FundingDetailsPage);
    await screen.findByTestId('list-empty');
    await user.click(screen.getByTestId('tab-withdraw'));
    await waitFor(() => expect(ctx.server.calls.at(-1)!.url).toBe('/api/vue/funds/records?type=withdraw&page=1&size=20'));
    expect(await screen.findByTestId('list-empty')).toBeInTheDocument();
  });
});
