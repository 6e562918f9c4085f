import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { envelope, renderPage } from '@/test/render';
import { useScreenTest } from '@/test/screen';
import DepositReviewPage from './DepositReviewPage';

const pending = {
  orderNo: 'D9',
  account: '0912345678',
  currency: 'TWD',
  amount: '5000',
  channelName: 'Bank transfer',
  proofFileId: 'f9',
  status: 'pending',
  remark: '',
  createdAt: '2026-01-02T01:00:00Z',
};

const ctx = useScreenTest({ account: 'ops', objectUrls: true });

describe('deposit review', () => {
  it('lists pending deposits with the proof fetched with the session headers', async () => {
    ctx.server.on('/api/vue/ops/deposits?', () => envelope({ items: [pending], page: 1, hasMore: false }));
    ctx.server.on('/api/vue/files/', () => new Response(new Blob([new Uint8Array([1])], { type: 'image/png' })));
    renderPage('/ops/deposits', DepositReviewPage);
    const item = await screen.findByTestId('ops-deposit');
    expect(item).toHaveTextContent('TWD 5,000.00');
    expect(item).toHaveTextContent('0912345678');
    expect(ctx.server.calls[0]!.url).toBe('/api/vue/ops/deposits?status=pending&page=1');
    await waitFor(() => expect(ctx.server.calls.some((c) => c.url === '/api/vue/files/f9')).toBe(true));
    const file = ctx.server.calls.find((c) => c.url === '/api/vue/files/f9')!;
    expect(file.init.headers).toMatchObject({ token: 'tok', account: 'ops' });
  });

  it("shortens a long order number on the narrow card (whole on tap and in the title), and names the demo channel in the screen's language", async () => {
    const orderNo = 'D202611220226360969569073';
    ctx.server.on('/api/vue/ops/deposits?', () => envelope({ items: [{ ...pending, orderNo }], page: 1, hasMore: false }));
    ctx.server.on('/api/vue/files/', () => new Response(new Blob([new Uint8Array([1])], { type: 'image/png' })));
    renderPage('/ops/deposits', DepositReviewPage);
    const no = await screen.findByTestId('ops-deposit-order-no');
    expect(no).toHaveTextContent(/^D20261\.\.\.569073$/);
    expect(no).toHaveAttribute('title', orderNo);
    expect(screen.getByTestId('ops-deposit')).toHaveAttribute('data-order-no', orderNo);
    await userEvent.click(no);
    expect(no).toHaveTextContent(orderNo);
    expect(no).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(no);
    expect(no).toHaveTextContent('D20261...569073');
    expect(screen.getByTestId('ops-deposit-channel')).toHaveTextContent('銀行轉帳');
  });

  it('shows a short order number whole', async () => {
    ctx.server.on('/api/vue/ops/deposits?', () => envelope({ items: [pending], page: 1, hasMore: false }));
    ctx.server.on('/api/vue/files/', () => new Response(new Blob([new Uint8Array([1])], { type: 'image/png' })));
    renderPage('/ops/deposits', DepositReviewPage);
    const no = await screen.findByTestId('ops-deposit-order-no');
    expect(no).toHaveTextContent(/^D9$/);
    expect(no).not.toHaveAttribute('role');
  });

  it('rejects only with a remark', async () => {
    const user = userEvent.setup();
    ctx.server.on('/api/vue/ops/deposits?', () => envelope({ items: [pending], page: 1, hasMore: false }));
    ctx.server.on('/api/vue/files/', () => new Response(new Blob([new Uint8Array([1])], { type: 'image/png' })));
    ctx.server.on('/api/vue/ops/deposits/D9/reject', () => envelope({ orderNo: 'D9', status: 'rejected', position: 11 }));
    renderPage('/ops/deposits', DepositReviewPage);
    await user.click(await screen.findByTestId('ops-reject'));
    await user.click(screen.getByTestId('ops-reject-confirm'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('請輸入備註');
    expect(ctx.server.calls.some((c) => c.url.endsWith('/reject'))).toBe(false);
    await user.type(screen.getByTestId('ops-reject-remark'), 'proof unreadable');
    await user.click(screen.getByTestId('ops-reject-confirm'));
    await waitFor(() => expect(ctx.shown).toContain('已駁回'));
    const call = ctx.server.calls.find((c) => c.url.endsWith('/reject'))!;
    expect(JSON.parse(call.init.body as string)).toEqual({ remark: 'proof unreadable' });
    expect(call.init.headers['Idempotency-Key']).toBeTruthy();
  });
});
