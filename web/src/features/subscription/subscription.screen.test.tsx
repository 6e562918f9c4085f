import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { envelope, renderPage } from '@/test/render';
import { useScreenTest } from '@/test/screen';
import DrawAuditPage from './DrawAuditPage';
import OpsSubscriptionPage from './OpsSubscriptionPage';
import SubscribeDetailPage from './SubscribeDetailPage';
import SubscribeRecordPage from './SubscribeRecordPage';

const issue = (over: Record<string, unknown> = {}) => ({
  issueId: '1295-20261124', symbol: '1295', name: '生合', currency: 'TWD', price: '50.00', referencePrice: '72.50', lots: 1000,
  unitLots: 1, lotShares: 1000, fee: '20.00', postage: '50.00', amount: '50020.00', opensAt: '2026-11-24T01:00:00Z',
  closesAt: '2026-11-26T06:00:00Z', drawDate: '2026-11-27', deductionDate: '2026-11-30', refundDate: '2026-12-01',
  listingDate: '2026-12-03', pe: '18.40', industryPe: '25.10', state: 'to_subscribe', commitment: 'ab'.repeat(32),
  algorithm: 'sha256-counter-fisher-yates/v1', seed: '', drawn: false, applications: 12, winners: 0, applied: false, ...over,
});
const application = (over: Record<string, unknown> = {}) => ({
  applicationNo: 'S1', issueId: '1295-20261124', symbol: '1295', name: '生合', lots: 1, shares: 1000, price: '50.00', amount: '50000.00',
  fee: '20.00', postage: '0.00', refunded: '0.00', state: 'waiting_for_draw', result: 'pending', allotted: 0,
  appliedAt: '2026-11-24T02:00:00Z', drawDate: '2026-11-27', deductionDate: '2026-11-30', refundDate: '2026-12-01', listingDate: '2026-12-03', ...over,
});

const ctx = useScreenTest({ account: '0912345678', confirm: true });
const posts = (path: string) => ctx.server.calls.filter((c) => c.init.method === 'POST' && new URL(c.url, 'http://x').pathname === path);
const url = '/market/subscribeDetail?id=1295-20261124';

describe('subscription detail', () => {
  beforeEach(() => {
    ctx.server.on('/api/vue/user/info', () => envelope({}));
  });

  it('applies for the unit of lots after confirming, with the amount to freeze shown first', async () => {
    let applied = false;
    ctx.server.on('/api/vue/subscription/issues/1295-20261124/apply', () => {
      applied = true;
      return envelope({ applicationNo: 'S1', state: 'waiting_for_draw', position: 9, available: '0.00', frozen: '50020.00' });
    });
    ctx.server.on('/api/vue/subscription/issues/1295-20261124', () =>
      envelope(applied ? { issue: issue({ applied: true }), application: application() } : { issue: issue() }),
    );
    renderPage('/market/subscribeDetail', SubscribeDetailPage, { url });
    expect(await screen.findByTestId('sub-amount')).toHaveTextContent('50,020.00');
    expect(screen.getByTestId('sub-seed')).toHaveTextContent('抽籤時公開');
    expect(screen.getByTestId('sub-commitment')).toHaveTextContent('ab'.repeat(32));
    fireEvent.click(screen.getByTestId('sub-apply'));
    expect(String(ctx.asked?.content)).toContain('50,020.00');
    await act(async () => {
      await ctx.asked!.onConfirm?.();
    });
    await waitFor(() => expect(posts('/api/vue/subscription/issues/1295-20261124/apply')).toHaveLength(1));
    expect(JSON.parse(String(posts('/api/vue/subscription/issues/1295-20261124/apply')[0]!.init.body))).toEqual({ lots: 1 });
    expect(await screen.findByTestId('sub-allotment')).toHaveTextContent('待抽籤');
    expect(screen.getByTestId('sub-apply-blocked')).toHaveAttribute('data-reason', 'applied');
  });

  it('offers no apply button outside the window', async () => {
    ctx.server.on('/api/vue/subscription/issues/1295-20261124', () => envelope({ issue: issue({ state: 'not_started' }) }));
    renderPage('/market/subscribeDetail', SubscribeDetailPage, { url });
    expect(await screen.findByTestId('sub-apply-blocked')).toHaveTextContent('尚未開始申購');
    expect(screen.queryByTestId('sub-apply')).toBeNull();
  });

  it('shows the revealed seed once drawn', async () => {
    ctx.server.on('/api/vue/subscription/issues/1295-20261124', () => envelope({ issue: issue({ state: 'subscribing', drawn: true, seed: 'cd'.repeat(32), winners: 3 }) }));
    renderPage('/market/subscribeDetail', SubscribeDetailPage, { url });
    expect(await screen.findByTestId('sub-seed')).toHaveTextContent('cd'.repeat(32));
  });
});

describe('subscription records', () => {
  it('shows every application with its result, state, refund and allotment', async () => {
    ctx.server.on('/api/vue/subscription/records', () =>
      envelope([
        application({ applicationNo: 'S2', state: 'payment_completed', result: 'won', postage: '50.00', allotted: 1000 }),
        application({ applicationNo: 'S3', state: 'not_won', result: 'not_won', refunded: '50000.00' }),
        application({ applicationNo: 'S4', state: 'waived', result: 'won', refunded: '50000.00' }),
      ]),
    );
    renderPage('/market/subscribeRecord', SubscribeRecordPage);
    const cards = await screen.findAllByTestId('sub-application');
    expect(cards.map((c) => c.getAttribute('data-state'))).toEqual(['payment_completed', 'not_won', 'waived']);
    expect(screen.getAllByTestId('sub-allotment').map((e) => e.textContent)).toEqual(['已扣款', '未中籤', '已放棄']);
    expect(screen.getByTestId('sub-allotted')).toHaveTextContent('1000 股');
    expect(screen.getAllByTestId('sub-refunded').map((e) => e.textContent)).toEqual(['50,000.00', '50,000.00']);
  });
});

describe('ops listing', () => {
  beforeEach(() => {
    // One answer per method: the list, or the listing just posted.
    ctx.server.on('/api/vue/ops/subscription/issues', () =>
      ctx.server.calls.at(-1)?.init.method === 'POST' ? envelope({ issueId: '2073-20261127', commitment: 'ef'.repeat(32), algorithm: 'x', position: 3 }) : envelope([issue()]),
    );
  });

  it('refuses an incomplete form without a request, then lists with UTC window times', async () => {
    renderPage('/ops/subscription', OpsSubscriptionPage);
    await screen.findByTestId('ops-sub-issue');
    fireEvent.click(screen.getByTestId('ops-sub-submit'));
    expect(await screen.findByTestId('form-error')).toHaveTextContent('請填寫所有欄位');
    expect(posts('/api/vue/ops/subscription/issues')).toHaveLength(0);
    const fill = (k: string, v: string) => fireEvent.change(screen.getByTestId(`ops-sub-${k}`), { target: { value: v } });
    for (const [k, v] of Object.entries({
      symbol: '2073', price: '38', referencePrice: '48.2', lots: '600', opensAt: '2026-11-27T09:00', closesAt: '2026-11-29T14:00',
      drawDate: '2026-11-30', deductionDate: '2026-12-01', refundDate: '2026-12-02', listingDate: '2026-12-04', pe: '12.9', industryPe: '16.3',
    }))
      fill(k, v);
    fireEvent.click(screen.getByTestId('ops-sub-submit'));
    await waitFor(() => expect(posts('/api/vue/ops/subscription/issues')).toHaveLength(1));
    expect(JSON.parse(String(posts('/api/vue/ops/subscription/issues')[0]!.init.body))).toMatchObject({
      symbol: '2073', lots: 600, unitLots: 1, opensAt: '2026-11-27T01:00:00Z', closesAt: '2026-11-29T06:00:00Z', drawDate: '2026-11-30',
    });
  });
});

describe('ops applications', () => {
  it('names the member of each application: name and account', async () => {
    // Answers match on the URL's start: the applications' before the issues'.
    ctx.server.on('/api/vue/ops/subscription/issues/1295-20261124/applications', () =>
      envelope([application({ member: { account: '0911222333', name: '王小明' } }), application({ applicationNo: 'S2' })]),
    );
    ctx.server.on('/api/vue/ops/subscription/issues', () => envelope([issue()]));
    renderPage('/ops/subscription', OpsSubscriptionPage);
    fireEvent.click(await screen.findByTestId('ops-sub-toggle'));
    const rows = await screen.findAllByTestId('ops-sub-application');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('王小明');
    expect(rows[0]).toHaveTextContent('0911222333');
    expect(screen.getAllByTestId('ops-entrant')).toHaveLength(1);
  });
});

describe('auditor draw check', () => {
  it('shows the verdict, the seed against its commitment and each winner re-run', async () => {
    ctx.server.on('/api/vue/audit/subscription/issues/1295-20261124/draw', () =>
      envelope({
        issueId: '1295-20261124', algorithm: 'sha256-counter-fisher-yates/v1', commitment: 'ab'.repeat(32), seed: 'cd'.repeat(32), drawn: true,
        lots: 2, applications: ['S1', 'S2', 'S3'], winners: ['S3', 'S1'], recomputed: ['S3', 'S2'], seedMatches: true,
        applicationsMatch: true, winnersMatch: false, verified: false,
      }),
    );
    const u = '/audit/subscription?id=1295-20261124';
    renderPage('/audit/subscription', DrawAuditPage, { url: u });
    expect(await screen.findByTestId('draw-audit-verdict')).toHaveTextContent('驗證未通過');
    expect(screen.getByTestId('draw-audit')).toHaveAttribute('data-verified', 'false');
    expect(screen.getAllByTestId('draw-audit-winner').map((w) => w.textContent)).toEqual(['1S3✓', '2S1✗']);
  });
});
