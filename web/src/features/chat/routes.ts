import type { FeatureRoute } from '@/lib/routes';
import { useChatUnread } from './unread';

const service = { tw: '客服', en: 'Customer service' };
const opsChats = { tw: '客服對話', en: 'Customer chats' };

export const chatRoutes: FeatureRoute[] = [
  {
    path: 'chat',
    zone: 'session',
    load: () => import('./ChatPage'),
    entries: [
      { place: 'home', key: 'customerService', label: service, roles: ['member'], icon: 'service', badge: useChatUnread },
      { place: 'home', key: 'onlineService', label: { tw: '在線客服', en: 'Online service' }, roles: ['member'], icon: 'service', badge: useChatUnread },
      { place: 'mine', key: 'customer-service', label: service, roles: ['member'], badge: useChatUnread },
    ],
  },
  {
    path: 'ops/chats',
    zone: 'ops',
    load: () => import('./OpsChatListPage'),
    entries: [
      { place: 'home', key: 'opsChats', label: opsChats, roles: ['ops'], icon: 'service' },
      { place: 'mine', key: 'ops-chats', label: opsChats, roles: ['ops'] },
    ],
  },
  { path: 'ops/chats/:account', zone: 'ops', load: () => import('./OpsChatPage') },
];
