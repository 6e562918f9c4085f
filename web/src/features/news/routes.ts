import type { FeatureRoute } from '@/lib/routes';

const notices = { tw: '公告', en: 'Notices' };
const opsNews = { tw: '新聞公告管理', en: 'News and notices' };

export const newsRoutes: FeatureRoute[] = [
  // The news tab.
  {
    path: 'home/moreNews',
    zone: 'tabs',
    keepAlive: true,
    load: () => import('./MoreNewsPage'),
    tab: { key: 'news', order: 60, label: { tw: '資訊', en: 'News' }, icon: 'news' },
  },
  { path: 'home/DetailsPage', zone: 'session', load: () => import('./DetailsPage') },
  {
    path: 'home/notice',
    zone: 'session',
    load: () => import('./NoticePage'),
    entries: [{ place: 'mine', key: 'notices', label: notices, roles: ['member'] }],
  },
  { path: 'home/noticeDetail', zone: 'session', load: () => import('./NoticeDetailPage') },
  {
    path: 'ops/news',
    zone: 'ops',
    load: () => import('./OpsNewsPage'),
    entries: [
      { place: 'home', key: 'opsNews', label: opsNews, roles: ['ops'], icon: 'news' },
      { place: 'mine', key: 'ops-news', label: opsNews, roles: ['ops'] },
    ],
  },
  { path: 'ops/newsEdit', zone: 'ops', load: () => import('./OpsNewsEditPage') },
];
