import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClientState } from '@/lib/api/client';
import { setLanguage } from '@/lib/i18n';
import { SocketManager } from '@/lib/socket/manager';
import { saveSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { FakeSocket } from '@/test/fakeSocket';
import type { Quote } from '@/domain/market/types';
import { quote } from '@/test/market';
import { apiMock, envelope, renderPage } from '@/test/render';
import DetailPage from './DetailPage';
import FavoritesPage from './FavoritesPage';
import { HISTORY_KEY } from './history';
import MarketPage from './MarketPage';
import { marketRoutes } from './routes';
import SearchPage from './SearchPage';

// The chart needs a canvas (absent in jsdom); its own behaviour is covered in the browser test.
vi.mock('./CandleChart', () => ({ default: ({ interval }: { interval: string }) => <div data-testid="chart" data-interval={interval} /> }));
vi.mock('./IntradayChart', () => ({ default: () => <div data-testid="chart" data-interval="intraday" /> }));

// One socket per test, on a fake WebSocket.
let socket: SocketManager;
vi.mock('@/lib/socket/socket', () => ({ appSocket: () => socket }));

const tsmc = quote({ symbol: '2330' });
const hon = quote({ symbol: '2317', name: '鴻海', nameEn: 'Hon Hai', price: '198.50', change: '-1.50', changePercent: '-0.75', prevClose: '200.00' });
const flat = quote({ symbol: '2412', name: '中華電', nameEn: '', price: '125.00', change: '0.00', changePercent: '0.00', prevClose: '125.00' });

let server: ReturnType<typeof apiMock>;
let shown: string[];
beforeEach(() => {
  resetClientState();
  FakeSocket.reset();
  socket = new SocketManager({ url: () => 'ws://test/api/vue/ws', create: (u) => new FakeSocket(u) });
  saveSession({ token: 'tok', account: '0912345678' });
  server = apiMock();
  // Favourites are offered by the role the server reports.
  server.on('/api/vue/user/info', () => envelope({ account: '0912345678', role: 'member' }));
  vi.stubGlobal('fetch', server.fetch);
  shown = [];
  vi.spyOn(toast, 'show').mockImplementation((text: string) => {
    shown.push(text);
  });
});
afterEach(() => {
  socket.dispose();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const urlOf = (c: { url: string }) => new URL(c.url, 'http://x');
const callsTo = (path: string) => server.calls.filter((c) => urlOf(c).pathname === path);

/** Opens the fake socket and returns it with the symbols the app subscribed to. */
async function openSocket() {
  const ws = await waitFor(() => FakeSocket.last());
  act(() => ws.open());
  const subscribed = ws.take().flatMap((m) => (m as { op: string; symbols: string[] }).op === 'subscribe' ? (m as { symbols: string[] }).symbols : []);
  return { ws, subscribed };
}

/** Pushes a quote and waits a frame for the cache write. */
async function push(ws: FakeSocket, data: object) {
  act(() => ws.push({ type: 'quote', data }));
  // The quote batch flushes on the next frame (a 16 ms timer here) and the query cache tells its
  // subscribers on a 0 ms timer after that: wait past the frame, then one more turn of timers, so
  // that on a loaded machine, where both fall due in the same turn, they still run before the
  // test looks.
  await act(() => new Promise((r) => setTimeout(r, 40)));
  await act(() => new Promise((r) => setTimeout(r, 0)));
}

describe('market list', () => {
  let items: Quote[];
  beforeEach(() => {
    items = [tsmc, hon, flat];
    server.on('/api/vue/market/stocks', () => envelope({ items, page: 1, hasMore: false, total: items.length }));
  });

  it('shows name, code, price and change percent in Taiwan colours', async () => {
    renderPage('/market/market', MarketPage);
    const rows = await screen.findAllByTestId('quote-row');
    expect(rows.map((r) => r.getAttribute('data-symbol'))).toEqual(['2330', '2317', '2412']);
    expect(within(rows[0]!).getByTestId('quote-name')).toHaveTextContent('台積電');
    expect(within(rows[0]!).getByTestId('quote-code')).toHaveTextContent('2330');
    expect(within(rows[0]!).getByTestId('quote-price')).toHaveTextContent('1,085.00');
    expect(within(rows[0]!).getByTestId('quote-price')).toHaveClass('up');
    expect(within(rows[0]!).getByTestId('quote-percent')).toHaveTextContent('+1.40%');
    expect(within(rows[0]!).getByTestId('quote-percent')).toHaveClass('pill-up');
    expect(within(rows[1]!).getByTestId('quote-price')).toHaveClass('down');
    expect(within(rows[1]!).getByTestId('quote-percent')).toHaveTextContent('-0.75%');
    expect(rows[2]).toHaveAttribute('data-trend', 'flat');
    expect(rows[0]!.getAttribute('href')).toMatch(/\/market\/marketDetail\?symbol=2330$/);
    const q = urlOf(callsTo('/api/vue/market/stocks')[0]!).searchParams;
    expect(Object.fromEntries(q)).toEqual({ tab: 'all', market: 'listed', type: 'stock', page: '1', size: '20' });
    // index.html sends the tab's declared first read on a cold start: taken only if it is this very URL.
    expect(marketRoutes.find((r) => r.tab?.key === 'market')?.firstRead).toBe(callsTo('/api/vue/market/stocks')[0]!.url);
  });

  it('asks for the tab and market chosen', async () => {
    renderPage('/market/market', MarketPage);
    await screen.findAllByTestId('quote-row');
    fireEvent.click(screen.getByTestId('market-tab-gainers'));
    await waitFor(() => expect(callsTo('/api/vue/market/stocks').some((c) => urlOf(c).searchParams.get('tab') === 'gainers')).toBe(true));
    fireEvent.click(screen.getByTestId('market-otc'));
    await waitFor(() =>
      expect(callsTo('/api/vue/market/stocks').some((c) => urlOf(c).searchParams.get('tab') === 'gainers' && urlOf(c).searchParams.get('market') === 'otc')).toBe(true),
    );
    expect(screen.getByTestId('market-otc')).toHaveAttribute('aria-selected', 'true');
  });

  it('updates prices live from the socket', async () => {
    renderPage('/market/market', MarketPage);
    await screen.findAllByTestId('quote-row');
    const { ws, subscribed } = await openSocket();
    expect(subscribed.sort()).toEqual(['2317', '2330', '2412']);
    await push(ws, { ...hon, price: '201.00', change: '1.00', changePercent: '0.50', time: '2026-11-23T02:00:05Z' });
    const row = screen.getAllByTestId('quote-row')[1]!;
    expect(within(row).getByTestId('quote-price')).toHaveTextContent('201.00');
    expect(within(row).getByTestId('quote-price')).toHaveClass('up');
    expect(within(row).getByTestId('quote-percent')).toHaveTextContent('+0.50%');
  });

  it('marks 注意 and 處置 stocks beside 漲停 / 跌停, in both languages', async () => {
    items = [
      { ...tsmc, tradingStatus: 'attention' },
      { ...hon, price: '180.00', change: '-20.00', changePercent: '-10.00', limitDown: '180.00', tradingStatus: 'disposition' },
      flat,
    ];
    await setLanguage('tw');
    const { unmount } = renderPage('/market/market', MarketPage);
    let rows = await screen.findAllByTestId('quote-row');
    expect(within(rows[0]!).getByTestId('quote-status')).toHaveTextContent('注意');
    expect(within(rows[0]!).getByTestId('quote-status')).toHaveAttribute('data-status', 'attention');
    expect(within(rows[1]!).getByTestId('quote-status')).toHaveTextContent('處置');
    expect(within(rows[1]!).getByTestId('quote-status').getAttribute('title')).toContain('不得現股當沖');
    expect(within(rows[1]!).getByTestId('quote-limit')).toHaveTextContent('跌停');
    expect(within(rows[2]!).queryByTestId('quote-status')).toBeNull();
    unmount();

    await setLanguage('en');
    renderPage('/market/market', MarketPage);
    rows = await screen.findAllByTestId('quote-row');
    expect(within(rows[0]!).getByTestId('quote-status')).toHaveTextContent('Attention');
    expect(within(rows[1]!).getByTestId('quote-status')).toHaveTextContent('Disposition');
  });

  it('shows English names in en, the Chinese one where there is none', async () => {
    await setLanguage('en');
    renderPage('/market/market', MarketPage);
    const names = (await screen.findAllByTestId('quote-name')).map((n) => n.textContent);
    expect(names).toEqual(['TSMC', 'Hon Hai', '中華電']);
    expect(screen.getByTestId('market-tab-losers')).toHaveTextContent('Losers');
  });
});

describe('stock detail', () => {
  const detail = {
    ...tsmc,
    bids: [
      { price: '1080.00', size: 120_000 },
      { price: '1075.00', size: 3000 },
    ],
    asks: [{ price: '1090.00', size: 45_000 }],
    session: { phase: 'continuous', open: true, demo: true },
  };
  // The day's tape as the server gives it: its volume is the quote's.
  const tape = {
    items: [
      { time: '2026-11-23T02:00:58Z', price: '1085.00', size: 3000, tick: 'up', side: 'outer' },
      { time: '2026-11-23T02:00:41Z', price: '1080.00', size: 1000, tick: 'down', side: 'inner' },
    ],
    outer: 20_000_000,
    inner: 15_000_000,
    neutral: 421_000,
    volume: Number(tsmc.volume),
    time: '2026-11-23T02:01:00Z',
  };
  let favorites: string[];
  let status: Quote['tradingStatus'];
  beforeEach(() => {
    favorites = [];
    status = 'normal';
    server.on('/api/vue/market/stocks/2330/trades', () => envelope(tape));
    server.on('/api/vue/market/stocks/2330', () => envelope({ ...detail, tradingStatus: status }));
    server.on('/api/vue/user/Optionallist', () => envelope(favorites.map((s) => quote({ symbol: s }))));
    server.on('/api/vue/user/favorites', () => {
      favorites.push('2330');
      return envelope({ symbol: '2330', position: 7 });
    });
  });

  it('shows the day, volume in lots and shares, turnover, limits, best five and session', async () => {
    renderPage('/market/marketDetail', DetailPage, { url: '/market/marketDetail?symbol=2330' });
    expect(await screen.findByTestId('detail-price')).toHaveTextContent('1,085.00');
    expect(screen.getByTestId('detail-price')).toHaveAttribute('data-trend', 'up');
    expect(screen.getByTestId('detail-change')).toHaveTextContent('+15.00');
    expect(screen.getByTestId('detail-percent')).toHaveTextContent('+1.40%');
    expect(screen.getByTestId('detail-open')).toHaveTextContent('1,075.00');
    expect(screen.getByTestId('detail-prev-close')).toHaveTextContent('1,070.00');
    expect(screen.getByTestId('detail-high')).toHaveTextContent('1,090.00');
    expect(screen.getByTestId('detail-low')).toHaveTextContent('1,070.00');
    expect(screen.getByTestId('detail-volume-lots')).toHaveTextContent('35,421 張');
    expect(screen.getByTestId('detail-volume-shares')).toHaveTextContent('35,421,000 股');
    expect(screen.getByTestId('detail-turnover')).toHaveTextContent('383.73億');
    expect(screen.getByTestId('detail-limit-up')).toHaveTextContent('1,175.00');
    expect(screen.getByTestId('detail-limit-down')).toHaveTextContent('965.00');
    expect(screen.getByTestId('detail-session')).toHaveTextContent('盤中交易 · 示範行情（全天交易）');
    expect(screen.getByTestId('book-bid-1')).toHaveTextContent('1,080.00120');
    expect(screen.getByTestId('book-bid-2')).toHaveTextContent('1,075.003');
    expect(screen.getByTestId('book-bid-3')).toHaveTextContent('----');
    expect(screen.getByTestId('book-ask-1')).toHaveTextContent('1,090.0045');
    expect(await screen.findByTestId('chart')).toHaveAttribute('data-interval', 'intraday');
    expect(screen.getByTestId('chart-attribution').querySelector('a')).toHaveAttribute('href', 'https://www.tradingview.com/');
  });

  it('shows 五檔 totals, 內外盤 and 成交明細, and adds the trades pushed since', async () => {
    renderPage('/market/marketDetail', DetailPage, { url: '/market/marketDetail?symbol=2330' });
    expect(await screen.findByTestId('bid-total')).toHaveTextContent('123');
    expect(screen.getByTestId('ask-total')).toHaveTextContent('45');
    await waitFor(() => expect(screen.getAllByTestId('tape-row')).toHaveLength(2));
    expect(screen.getByTestId('outer-volume')).toHaveTextContent('20,000');
    expect(screen.getByTestId('inner-volume')).toHaveTextContent('15,000');
    expect(screen.getByTestId('outer-ratio')).toHaveTextContent('57.1% : 42.9%');
    expect(screen.getAllByTestId('tape-row')[0]).toHaveTextContent('10:00:581,085.003▲');
    const { ws } = await openSocket();
    // 2 lots more at 1,090.00, up from the last trade: a row at the top, on the outer side.
    await push(ws, { ...detail, price: '1090.00', volume: Number(tsmc.volume) + 2000, time: '2026-11-23T02:01:03Z', bids: null, asks: null });
    const rows = screen.getAllByTestId('tape-row');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveAttribute('data-tick', 'up');
    expect(rows[0]).toHaveAttribute('data-side', 'outer');
    expect(rows[0]).toHaveTextContent('10:01:031,090.002▲');
    expect(screen.getByTestId('outer-volume')).toHaveTextContent('20,002');
    // A push without new volume adds nothing.
    await push(ws, { ...detail, price: '1090.00', volume: Number(tsmc.volume) + 2000, time: '2026-11-23T02:01:04Z', bids: null, asks: null });
    expect(screen.getAllByTestId('tape-row')).toHaveLength(3);
  });

  it('lets a visitor see the screen without asking for member data, and remembers it for the login', async () => {
    const { clearSession } = await import('@/lib/session');
    clearSession();
    const { router } = renderPage('/market/marketDetail', DetailPage, { url: '/market/marketDetail?symbol=2330' });
    await screen.findByTestId('detail-price');
    await screen.findByTestId('bid-total');
    const star = screen.getByTestId('favorite-toggle');
    expect(screen.getByTestId('detail-buy')).toHaveTextContent('買進');
    await userEvent.click(star);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login/login'));
    expect(sessionStorage.getItem('loginReturn')).toBe('/market/marketDetail?symbol=2330');
    expect(callsTo('/api/vue/user/Optionallist')).toHaveLength(0);
    expect(callsTo('/api/vue/user/info')).toHaveLength(0);
  });

  it('switches the chart interval', async () => {
    renderPage('/market/marketDetail', DetailPage, { url: '/market/marketDetail?symbol=2330' });
    await screen.findByTestId('chart');
    fireEvent.click(screen.getByTestId('interval-1d'));
    await waitFor(() => expect(screen.getByTestId('chart')).toHaveAttribute('data-interval', '1d'));
    expect(screen.getByTestId('interval-1d')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('interval-1M')).toHaveTextContent('月K');
  });

  it('updates the price live and shows when the price reaches the limit', async () => {
    renderPage('/market/marketDetail', DetailPage, { url: '/market/marketDetail?symbol=2330' });
    await screen.findByTestId('detail-price');
    const { ws, subscribed } = await openSocket();
    expect(subscribed).toContain('2330');
    await push(ws, { ...detail, price: '965.00', change: '-105.00', changePercent: '-9.81', time: '2026-11-23T02:01:00Z', bids: null });
    expect(screen.getByTestId('detail-price')).toHaveTextContent('965.00');
    expect(screen.getByTestId('detail-price')).toHaveAttribute('data-trend', 'down');
    expect(screen.getByTestId('detail-at-limit')).toHaveTextContent('跌停');
    expect(screen.getByTestId('book-bid-1')).toHaveTextContent('1,080.00'); // the book stays
  });

  it('shows the 處置 badge on a disposition stock and follows the status live', async () => {
    status = 'disposition';
    renderPage('/market/marketDetail', DetailPage, { url: '/market/marketDetail?symbol=2330' });
    expect(await screen.findByTestId('detail-status')).toHaveTextContent('處置');
    const { ws } = await openSocket();
    await push(ws, { ...detail, tradingStatus: 'attention', time: '2026-11-23T02:01:00Z', bids: null });
    expect(screen.getByTestId('detail-status')).toHaveTextContent('注意');
    await push(ws, { ...detail, tradingStatus: 'normal', time: '2026-11-23T02:01:01Z', bids: null });
    expect(screen.queryByTestId('detail-status')).toBeNull();
  });

  it('adds to favourites with an idempotency key', async () => {
    renderPage('/market/marketDetail', DetailPage, { url: '/market/marketDetail?symbol=2330' });
    const button = await screen.findByTestId('favorite-toggle');
    await waitFor(() => expect(button).toHaveAttribute('data-ready', 'true'));
    expect(screen.getByTestId('favorite-toggle')).toHaveAttribute('data-on', 'false');
    await userEvent.click(button);
    await waitFor(() => expect(screen.getByTestId('favorite-toggle')).toHaveAttribute('data-on', 'true'));
    const add = callsTo('/api/vue/user/favorites')[0]!;
    expect(add.init.method).toBe('POST');
    expect(JSON.parse(add.init.body as string)).toEqual({ symbol: '2330' });
    expect(add.init.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(shown).toContain('已加入自選');
    expect(screen.getByTestId('favorite-toggle')).toHaveAttribute('aria-label', '移除自選');
  });

  // The server's favourites read model lags the command: a read sees the added symbol only once
  // it asks for the command's position (as the real server waits for its projections).
  function laggingFavourites(hold?: () => Promise<never>) {
    vi.stubGlobal('fetch', (url: string, init: RequestInit & { headers: Record<string, string> }) => {
      if (!url.endsWith('/api/vue/user/Optionallist')) return server.fetch(url, init);
      server.calls.push({ url, init });
      if (hold && favorites.length > 0) return hold();
      const caughtUp = Number(init.headers['Lotbook-Position'] ?? 0) >= 7;
      return Promise.resolve(envelope(caughtUp ? favorites.map((s) => quote({ symbol: s })) : []));
    });
  }

  it('the read after adding a favourite asks for the command position, so the star stays on', async () => {
    laggingFavourites();
    renderPage('/market/marketDetail', DetailPage, { url: '/market/marketDetail?symbol=2330' });
    const button = await screen.findByTestId('favorite-toggle');
    await waitFor(() => expect(button).toHaveAttribute('data-ready', 'true'));
    await userEvent.click(button);
    await waitFor(() => expect(callsTo('/api/vue/user/Optionallist')).toHaveLength(2));
    expect(callsTo('/api/vue/user/Optionallist')[1]!.init.headers['Lotbook-Position']).toBe('7');
    await waitFor(() => expect(screen.getByTestId('favorite-toggle')).toHaveAttribute('data-ready', 'true'));
    expect(screen.getByTestId('favorite-toggle')).toHaveAttribute('data-on', 'true');
  });

  it('the star turns on from the command answer, before the favourites are read again', async () => {
    laggingFavourites(() => new Promise<never>(() => {}));
    const { client } = renderPage('/market/marketDetail', DetailPage, { url: '/market/marketDetail?symbol=2330' });
    const button = await screen.findByTestId('favorite-toggle');
    await waitFor(() => expect(button).toHaveAttribute('data-ready', 'true'));
    await userEvent.click(button);
    await waitFor(() => expect(screen.getByTestId('favorite-toggle')).toHaveAttribute('data-on', 'true'));
    const cached = client.getQueryData<Array<{ symbol: string; bids: unknown[] }>>(['market', 'favorites', 'all']);
    expect(cached?.map((q) => q.symbol)).toEqual(['2330']);
    expect(cached?.[0]?.bids).toEqual([]);
  });

  it('shows a not-found state for an unknown symbol', async () => {
    server.on('/api/vue/market/stocks/NOPE', () => envelope(null, 0, 'not_found', 404));
    renderPage('/market/marketDetail', DetailPage, { url: '/market/marketDetail?symbol=nope' });
    expect(await screen.findByTestId('list-empty')).toHaveTextContent('找不到這檔股票');
    expect(shown).toContain('找不到資料');
  });
});

describe('favourites', () => {
  it('lists favourites and removes one in edit mode', async () => {
    let favs = [tsmc, hon];
    server.on('/api/vue/user/Optionallist', () => envelope(favs));
    server.on('/api/vue/user/favorites/2317', () => {
      favs = [tsmc];
      return envelope({ symbol: '2317', position: 9 });
    });
    renderPage('/market/favo', FavoritesPage);
    expect(await screen.findAllByTestId('favo-row')).toHaveLength(2);
    expect(JSON.parse(callsTo('/api/vue/user/Optionallist')[0]!.init.body as string)).toEqual({ type: 'all' });
    fireEvent.click(screen.getByTestId('favo-edit'));
    fireEvent.click(screen.getByTestId('favo-remove-2317'));
    await waitFor(() => expect(screen.getAllByTestId('favo-row')).toHaveLength(1));
    const del = callsTo('/api/vue/user/favorites/2317')[0]!;
    expect(del.init.method).toBe('DELETE');
    expect(del.init.headers['Idempotency-Key']).toBeTruthy();
    expect(shown).toContain('已移除自選');
  });

  it('filters by market and shows the empty state', async () => {
    server.on('/api/vue/user/Optionallist', () => envelope([]));
    renderPage('/market/favo', FavoritesPage);
    expect(await screen.findByTestId('list-empty')).toHaveTextContent('尚未加入自選股');
    fireEvent.click(screen.getByTestId('favo-type-otc'));
    await waitFor(() => expect(callsTo('/api/vue/user/Optionallist').map((c) => JSON.parse(c.init.body as string).type)).toContain('otc'));
  });
});

describe('search', () => {
  let found: unknown[];
  beforeEach(() => {
    found = [tsmc];
    server.on('/api/vue/market/hot', () => envelope([tsmc, hon]));
    server.on('/api/vue/market/search', () => envelope(found));
  });

  it('searches once typing stops, by Chinese name or English', async () => {
    renderPage('/home/searchIndex', SearchPage);
    const input = screen.getByTestId('search-input');
    await userEvent.type(input, '台積電');
    const result = await screen.findByTestId('search-result');
    expect(result).toHaveAttribute('data-symbol', '2330');
    const searches = callsTo('/api/vue/market/search');
    expect(searches).toHaveLength(1); // debounced: one call for three characters
    expect(urlOf(searches[0]!).searchParams.get('q')).toBe('台積電');
    await userEvent.clear(input);
    await userEvent.type(input, 'TSMC');
    await waitFor(() => expect(callsTo('/api/vue/market/search').map((c) => urlOf(c).searchParams.get('q'))).toContain('TSMC'));
  });

  it('keeps a history on the device and clears it', async () => {
    localStorage.setItem(HISTORY_KEY, JSON.stringify(['2317']));
    renderPage('/home/searchIndex', SearchPage);
    expect(screen.getAllByTestId('history-item').map((h) => h.textContent)).toEqual(['2317']);
    const input = screen.getByTestId('search-input');
    await userEvent.type(input, 'tsmc{Enter}');
    expect(JSON.parse(localStorage.getItem(HISTORY_KEY)!)).toEqual(['tsmc', '2317']);
    await userEvent.clear(input);
    expect(screen.getAllByTestId('history-item').map((h) => h.textContent)).toEqual(['tsmc', '2317']);
    fireEvent.click(screen.getAllByTestId('history-item')[1]!);
    expect(input).toHaveValue('2317');
    await userEvent.clear(input);
    fireEvent.click(screen.getByTestId('history-clear'));
    expect(screen.queryByTestId('search-history')).toBeNull();
    expect(localStorage.getItem(HISTORY_KEY)).toBeNull();
  });

  it('shows the empty result state', async () => {
    found = [];
    renderPage('/home/searchIndex', SearchPage);
    await userEvent.type(screen.getByTestId('search-input'), 'zzzz');
    expect(await screen.findByTestId('search-empty')).toHaveTextContent('找不到符合的股票');
  });
});

describe('connection notice', () => {
  it('shows while the socket waits to reconnect, and refetches after it is back', async () => {
    server.on('/api/vue/market/stocks', () => envelope({ items: [tsmc], page: 1, hasMore: false, total: 1 }));
    renderPage('/market/market', MarketPage);
    await screen.findAllByTestId('quote-row');
    const { ws } = await openSocket();
    expect(screen.queryByTestId('live-reconnecting')).toBeNull();
    act(() => ws.drop());
    expect(await screen.findByTestId('live-reconnecting')).toHaveTextContent('連線中斷，正在重新連線…');
    const listCalls = callsTo('/api/vue/market/stocks').length;
    act(() => socket.retryNow());
    act(() => FakeSocket.last().open());
    await waitFor(() => expect(screen.queryByTestId('live-reconnecting')).toBeNull());
    await waitFor(() => expect(callsTo('/api/vue/market/stocks').length).toBeGreaterThan(listCalls));
    expect(FakeSocket.last().take()).toEqual([{ op: 'subscribe', symbols: ['2330'], channels: ['quote'] }]);
  });
});
