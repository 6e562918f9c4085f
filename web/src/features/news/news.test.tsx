import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HomeNotice } from '@/components/news/HomeNotice';
import { resetClientState } from '@/lib/api/client';
import { setLanguage } from '@/lib/i18n';
import { saveSession } from '@/lib/session';
import { apiMock, envelope, renderPage } from '@/test/render';
import { ArticleBody, safeHref } from './ArticleBody';
import NoticeDetailPage from './NoticeDetailPage';
import OpsNewsEditPage from './OpsNewsEditPage';
import { isoToTaipeiLocal, taipeiLocalToISO, validateNewsText } from './validation';

describe('ArticleBody', () => {
  it('renders the allowed markup and nothing that could run', () => {
    const hostile =
      '<p onclick="alert(1)">Hello <strong>there</strong><script>alert(2)</script></p>' +
      '<img src="x" onerror="alert(3)"><a href="javascript:alert(4)">bad link</a> <a href="https://www.twse.com.tw/">TWSE</a>' +
      '<iframe src="https://evil.example"></iframe><svg><script>alert(5)</script></svg><style>p{display:none}</style>' +
      '<div style="position:fixed">kept text</div>';
    const { container } = render(<ArticleBody html={hostile} />);
    expect(container.querySelector('script, img, iframe, svg, style, [onclick], [onerror], [style]')).toBeNull();
    expect(container.querySelectorAll('a')).toHaveLength(1);
    const a = container.querySelector('a')!;
    expect(a.getAttribute('href')).toBe('https://www.twse.com.tw/');
    expect(a.getAttribute('rel')).toBe('nofollow noreferrer noopener');
    expect(a.getAttribute('target')).toBe('_blank');
    expect(container.textContent).toContain('Hello there');
    expect(container.textContent).toContain('bad link');
    expect(container.textContent).toContain('kept text');
    expect(container.textContent).not.toContain('alert');
    expect(container.querySelector('p strong')?.textContent).toBe('there');
  });

  it('keeps only absolute http, https and mailto links', () => {
    expect(safeHref('https://a.example/x?y=1')).toBe('https://a.example/x?y=1');
    expect(safeHref('mailto:help@a.example')).toBe('mailto:help@a.example');
    for (const bad of ['javascript:alert(1)', ' JavaScript:alert(1)', 'data:text/html,x', 'vbscript:x', '/relative', '#/home/index', '', null]) {
      expect(safeHref(bad)).toBeUndefined();
    }
  });
});

describe('news validation', () => {
  const ok = { titleTw: '公告', titleEn: 'Notice', bodyTw: '<p>內容</p>', bodyEn: '<p>Body</p>' };
  it('checks both titles and bodies as the server does', () => {
    expect(validateNewsText(ok)).toBeNull();
    expect(validateNewsText({ ...ok, titleEn: '  ' })).toBe('news_title_invalid');
    expect(validateNewsText({ ...ok, titleTw: '長'.repeat(121) })).toBe('news_title_invalid');
    expect(validateNewsText({ ...ok, titleTw: '長'.repeat(120) })).toBeNull();
    expect(validateNewsText({ ...ok, bodyTw: '' })).toBe('news_body_invalid');
    expect(validateNewsText({ ...ok, bodyEn: 'x'.repeat(8001) })).toBe('news_body_invalid');
  });
  it('reads the schedule input as Taipei time', () => {
    expect(taipeiLocalToISO('2026-12-20T09:00')).toBe('2026-12-20T01:00:00Z');
    expect(taipeiLocalToISO('')).toBeNull();
    expect(taipeiLocalToISO('2026-12-20')).toBeNull();
    expect(isoToTaipeiLocal('2026-12-20T01:00:00Z')).toBe('2026-12-20T09:00');
  });
});

describe('news screens', () => {
  let server: ReturnType<typeof apiMock>;
  const notice = { id: 'n1', kind: 'notice', titleTw: '休市公告', titleEn: 'Market holiday', publishedAt: '2026-03-02T02:00:00Z', read: false };
  beforeEach(() => {
    resetClientState();
    saveSession({ token: 'tok', account: '0912345678' });
    server = apiMock();
    server.on('/api/vue/user/info', () => envelope({ account: '0912345678', role: 'member' }));
    vi.stubGlobal('fetch', server.fetch);
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    await setLanguage('tw');
  });
  const callsTo = (path: string) => server.calls.filter((c) => new URL(c.url, 'http://x').pathname === path);

  it('shows a notice in the current language and marks it read once', async () => {
    await setLanguage('en');
    server.on('/api/vue/news/items/n1/read', () => envelope({ position: 9 }));
    server.on('/api/vue/news/items/n1', () =>
      envelope({ ...notice, bodyTw: '<p>12 月 25 日休市</p>', bodyEn: '<p>Closed on 25 December<script>alert(1)</script></p>' }),
    );
    server.on('/api/vue/news/unread', () => envelope({ articles: 0, notices: 0 }));
    server.on('/api/vue/news/items', () => envelope({ items: [], page: 1, hasMore: false }));
    renderPage('/home/noticeDetail', NoticeDetailPage, { url: '/home/noticeDetail?id=n1' });
    expect(await screen.findByTestId('news-title')).toHaveTextContent('Market holiday');
    expect(screen.getByTestId('news-body')).toHaveTextContent('Closed on 25 December');
    expect(screen.getByTestId('news-body').querySelector('script')).toBeNull();
    await waitFor(() => expect(callsTo('/api/vue/news/items/n1/read')).toHaveLength(1));
    const read = callsTo('/api/vue/news/items/n1/read')[0]!;
    expect(read.init.method).toBe('POST');
    expect(read.init.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('puts the latest notice and the unread count on home', async () => {
    server.on('/api/vue/news/unread', () => envelope({ articles: 1, notices: 2 }));
    server.on('/api/vue/news/items', () => envelope({ items: [notice], page: 1, hasMore: false }));
    renderPage('/home/index', HomeNotice);
    expect(await screen.findByTestId('home-notice-latest')).toHaveTextContent('休市公告');
    expect(screen.getByTestId('home-notice-latest')).toHaveAttribute('href', '/home/noticeDetail?id=n1');
    expect(await screen.findByTestId('home-notice-unread')).toHaveTextContent('2 則未讀');
    expect(new URL(callsTo('/api/vue/news/items')[0]!.url, 'http://x').searchParams.get('kind')).toBe('notice');
  });

  it('lets ops schedule a draft at a Taipei time and refuses a missing title before sending', async () => {
    server.on('/api/vue/user/info', () => envelope({ account: 'ops', role: 'ops' }));
    const draft = {
      id: 'd1', kind: 'notice', state: 'draft', titleTw: '公告', titleEn: 'Notice', bodyTw: '<p>內容</p>', bodyEn: '<p>Body</p>',
      createdBy: 'ops:ops', createdAt: '2026-03-02T02:00:00Z', updatedBy: 'ops:ops', updatedAt: '2026-03-02T02:00:00Z',
      history: [{ action: 'draft', actor: 'ops:ops', at: '2026-03-02T02:00:00Z' }],
    };
    server.on('/api/vue/ops/news/d1/schedule', () => envelope({ id: 'd1', position: 12 }));
    server.on('/api/vue/ops/news/d1', () => envelope(draft));
    renderPage('/ops/newsEdit', OpsNewsEditPage, { url: '/ops/newsEdit?id=d1' });
    expect(await screen.findByTestId('ops-news-state')).toHaveTextContent('草稿');
    expect(screen.getByTestId('ops-news-history')).toHaveTextContent('ops:ops');
    fireEvent.change(screen.getByTestId('ops-news-at'), { target: { value: '2026-12-20T09:30' } });
    fireEvent.click(screen.getByTestId('ops-news-schedule'));
    await waitFor(() => expect(callsTo('/api/vue/ops/news/d1/schedule')).toHaveLength(1));
    expect(JSON.parse(String(callsTo('/api/vue/ops/news/d1/schedule')[0]!.init.body))).toEqual({ at: '2026-12-20T01:30:00Z' });

    fireEvent.change(screen.getByTestId('ops-news-titleEn'), { target: { value: ' ' } });
    fireEvent.click(screen.getByTestId('ops-news-save'));
    expect(await screen.findByTestId('form-error')).toHaveTextContent('請輸入中英文標題');
    expect(callsTo('/api/vue/ops/news/d1/edit')).toHaveLength(0);
  });
});
