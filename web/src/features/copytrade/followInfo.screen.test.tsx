import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, renderPage } from '@/test/render';
import { useScreenTest } from '@/test/screen';
import FollowInfoPage from './FollowInfoPage';

const follow = (over: Record<string, unknown> = {}) => ({
  followId: 'F1',
  mentorId: 'M1',
  mentorName: '安',
  state: 'in_progress',
  amount: '100000.00',
  spent: '20028.00',
  remaining: '79972.00',
  released: '0.00',
  profit: '0.00',
  share: '0.00',
  profitShare: '10',
  days: 30,
  ends: '2026-12-24T00:00:00Z',
  closePositions: false,
  createdAt: '2026-11-24T01:00:00Z',
  updatedAt: '2026-11-24T01:00:00Z',
  ...over,
});

const detail = (f: Record<string, unknown>) => envelope({ follow: f, orders: [], positions: [] });

const ctx = useScreenTest();

describe('follow detail profit', () => {
  it('shows a follow in progress valued now, labelled as including unrealised profit', async () => {
    ctx.server.on('/api/vue/copytrade/follows/F1', () =>
      detail(follow({ current: { realised: '0.00', unrealised: '1908.00', profit: '1908.00', share: '190.00' } })),
    );
    renderPage('/gdindex/dsFllowInfo', FollowInfoPage, { url: '/gdindex/dsFllowInfo?id=F1' });
    const profit = await screen.findByTestId('copy-follow-profit');
    expect(await screen.findByText('損益（含未實現）')).toBeInTheDocument();
    expect(profit).toHaveTextContent('1,908.00');
    expect(screen.getByTestId('copy-follow-unrealised')).toHaveTextContent('1,908.00');
    expect(screen.getByTestId('copy-follow-realised')).toHaveTextContent('0.00');
    expect(screen.getByTestId('copy-follow-share-estimate')).toHaveTextContent('190.00');
  });

  it('shows the settled figures once the follow is stopped', async () => {
    ctx.server.on('/api/vue/copytrade/follows/F1', () =>
      detail(follow({ state: 'cancelled', profit: '1327.00', share: '132.00', released: '13783.00', remaining: '0.00' })),
    );
    renderPage('/gdindex/dsFllowInfo', FollowInfoPage, { url: '/gdindex/dsFllowInfo?id=F1' });
    const profit = await screen.findByTestId('copy-follow-profit');
    expect(await screen.findByText('跟單收益')).toBeInTheDocument();
    expect(screen.queryByText('損益（含未實現）')).not.toBeInTheDocument();
    expect(profit).toHaveTextContent('1,327.00');
    expect(screen.queryByTestId('copy-follow-unrealised')).not.toBeInTheDocument();
    expect(screen.queryByTestId('copy-follow-share-estimate')).not.toBeInTheDocument();
  });

  it('shows a stop under way as stopping, still valued now, with the commitment not yet released and the stop offered again', async () => {
    ctx.server.on('/api/vue/copytrade/follows/F1', () =>
      detail(follow({ state: 'stopping', remaining: '13783.00', current: { realised: '1908.00', unrealised: '-382.00', profit: '1526.00', share: '152.00' } })),
    );
    renderPage('/gdindex/dsFllowInfo', FollowInfoPage, { url: '/gdindex/dsFllowInfo?id=F1' });
    expect(await screen.findByTestId('copy-follow-state')).toHaveTextContent('停止中');
    expect(screen.getByTestId('copy-follow-stopping')).toHaveTextContent('正在停止跟單');
    expect(screen.getByTestId('copy-follow-profit')).toHaveTextContent('1,526.00');
    expect(screen.queryByText('已釋放')).not.toBeInTheDocument();
    expect(screen.getByTestId('copy-stop')).toBeInTheDocument();
  });
});
