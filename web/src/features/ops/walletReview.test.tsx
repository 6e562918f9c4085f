import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { envelope, renderPage } from '@/test/render';
import { useScreenTest } from '@/test/screen';
import RealNameReviewPage from './RealNameReviewPage';
import WithdrawalReviewPage from './WithdrawalReviewPage';

const submission = {
  account: '0912345678',
  name: '王小明',
  idNumber: 'A123456789',
  idNumberMasked: 'A12****789',
  frontFileId: 'front1',
  backFileId: 'back1',
  status: 'pending',
  remark: '',
  reviewedBy: '',
  submittedAt: '2026-01-02T01:00:00Z',
};
const withdrawal = {
  orderNo: 'W7',
  account: '0912345678',
  currency: 'TWD',
  amount: '1500',
  channelName: 'Bank transfer',
  holderName: '王小明',
  bankName: '臺灣銀行',
  branch: '0037',
  bankCode: '004',
  cardNumberMasked: '**** 6789',
  status: 'pending',
  remark: '',
  reviewedBy: '',
  createdAt: '2026-01-02T01:00:00Z',
};

const ctx = useScreenTest({ account: 'ops', objectUrls: true, confirm: true });

describe('identity review', () => {
  it('shows both photos and the ID number in the clear, and approves after confirming', async () => {
    const user = userEvent.setup();
    ctx.server.on('/api/vue/ops/realname?', () => envelope({ items: [submission], page: 1, hasMore: false }));
    ctx.server.on('/api/vue/files/', () => new Response(new Blob([new Uint8Array([1])], { type: 'image/png' })));
    ctx.server.on('/api/vue/ops/realname/0912345678/approve', () => envelope({ account: '0912345678', status: 'verified', position: 5 }));
    renderPage('/ops/realname', RealNameReviewPage);
    const item = await screen.findByTestId('ops-realname');
    expect(within(item).getByTestId('ops-realname-id')).toHaveTextContent('A123456789');
    expect(ctx.server.calls[0]!.url).toBe('/api/vue/ops/realname?status=pending&page=1');
    await waitFor(() => expect(ctx.server.calls.filter((c) => c.url.startsWith('/api/vue/files/')).map((c) => c.url).sort()).toEqual(['/api/vue/files/back1', '/api/vue/files/front1']));
    expect(screen.getByTestId('ops-nav-realname')).toHaveClass('navActive');
    await user.click(within(item).getByTestId('ops-realname-approve'));
    expect(ctx.asked?.content).toBe('確定通過 王小明 的實名認證？');
    await ctx.asked?.onConfirm?.();
    await waitFor(() => expect(ctx.shown).toContain('已通過'));
    expect(ctx.server.calls.find((c) => c.url.endsWith('/approve'))!.init.headers['Idempotency-Key']).toBeTruthy();
  });

  it('rejects only with a remark', async () => {
    const user = userEvent.setup();
    ctx.server.on('/api/vue/ops/realname?', () => envelope({ items: [submission], page: 1, hasMore: false }));
    ctx.server.on('/api/vue/files/', () => new Response(new Blob([new Uint8Array([1])], { type: 'image/png' })));
    ctx.server.on('/api/vue/ops/realname/0912345678/reject', () => envelope({ account: '0912345678', status: 'rejected', position: 6 }));
    renderPage('/ops/realname', RealNameReviewPage);
    await user.click(await screen.findByTestId('ops-realname-reject'));
    await user.click(screen.getByTestId('ops-realname-reject-confirm'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('請輸入備註');
    await user.type(screen.getByTestId('ops-realname-reject-remark'), ' photo blurry ');
    await user.click(screen.getByTestId('ops-realname-reject-confirm'));
    await waitFor(() => expect(ctx.shown).toContain('已駁回'));
    expect(JSON.parse(ctx.server.calls.find((c) => c.url.endsWith('/reject'))!.init.body as string)).toEqual({ remark: 'photo blurry' });
  });
});

describe('withdrawal review', () => {
  it('shows the card to pay to (masked) and approves after confirming the amount', async () => {
    const user = userEvent.setup();
    ctx.server.on('/api/vue/ops/withdrawals?', () => envelope({ items: [withdrawal], page: 1, hasMore: false }));
    ctx.server.on('/api/vue/ops/withdrawals/W7/approve', () => envelope({ orderNo: 'W7', status: 'approved', position: 8 }));
    renderPage('/ops/withdrawals', WithdrawalReviewPage);
    const item = await screen.findByTestId('ops-withdrawal');
    expect(within(item).getByTestId('ops-withdrawal-amount')).toHaveTextContent('TWD 1,500.00');
    expect(within(item).getByTestId('ops-withdrawal-card')).toHaveTextContent('**** 6789');
    expect(item).toHaveTextContent('004 臺灣銀行 0037');
    await user.click(within(item).getByTestId('ops-withdrawal-approve'));
    expect(ctx.asked?.content).toBe('確定已撥款 TWD 1,500.00 並通過這筆提領？');
    await ctx.asked?.onConfirm?.();
    await waitFor(() => expect(ctx.shown).toContain('已通過'));
  });

  it('rejects with a remark and lists the other states in their tabs', async () => {
    const user = userEvent.setup();
    ctx.server.on('/api/vue/ops/withdrawals?status=pending', () => envelope({ items: [withdrawal], page: 1, hasMore: false }));
    ctx.server.on('/api/vue/ops/withdrawals?status=rejected', () => envelope({ items: [{ ...withdrawal, status: 'rejected', remark: 'wrong card', reviewedBy: 'ops:ops' }], page: 1, hasMore: false }));
    ctx.server.on('/api/vue/ops/withdrawals/W7/reject', () => envelope({ orderNo: 'W7', status: 'rejected', position: 9 }));
    renderPage('/ops/withdrawals', WithdrawalReviewPage);
    await user.click(await screen.findByTestId('ops-withdrawal-reject'));
    await user.type(screen.getByTestId('ops-withdrawal-reject-remark'), 'wrong card');
    await user.click(screen.getByTestId('ops-withdrawal-reject-confirm'));
    await waitFor(() => expect(ctx.shown).toContain('已駁回'));
    await user.click(screen.getByTestId('ops-withdrawal-tab-rejected'));
    const done = await screen.findByTestId('ops-withdrawal');
    await waitFor(() => expect(screen.getByTestId('ops-withdrawal')).toHaveAttribute('data-status', 'rejected'));
    expect(screen.getByTestId('ops-withdrawal')).toHaveTextContent('wrong card');
    expect(within(done.parentElement!).queryByTestId('ops-withdrawal-approve')).toBeNull();
  });
});
