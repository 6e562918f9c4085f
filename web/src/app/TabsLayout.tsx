import {
  AppOutline,
  AppstoreOutline,
  BillOutline,
  FileOutline,
  HistogramOutline,
  SoundOutline,
  TeamOutline,
  UserOutline,
} from 'antd-mobile-icons';
import type { ComponentType } from 'react';
import { Outlet } from 'react-router-dom';
import { AppNavLink } from '@/components/AppLink';
import { useNewsUnread } from '@/domain/news/api';
import { useTabs } from '@/lib/tabs';

// The icons a tab may name (lib/tabs.ts); a generic one for a name not in the set.
const ICONS: Record<string, ComponentType<{ className?: string }>> = {
  home: AppOutline,
  market: HistogramOutline,
  trade: BillOutline,
  mine: UserOutline,
  news: SoundOutline,
  records: FileOutline,
  team: TeamOutline,
};

/** Tab roots: the page scrolls, the tab bar stays fixed at the bottom. Its tabs are the features'. */
export function TabsLayout() {
  const tabs = useTabs();
  const unread = useNewsUnread().data;
  const badges: Record<string, number> = { news: unread ? unread.articles + unread.notices : 0 };
  return (
    <div className="tabs-layout">
      <Outlet />
      <nav className="tab-bar" data-testid="tab-bar" data-count={tabs.length}>
        {tabs.map((tab) => {
          const Icon = ICONS[tab.icon] ?? AppstoreOutline;
          return (
            <AppNavLink key={tab.key} to={tab.path} className="tab-item" data-testid={`tab-${tab.key}`}>
              <span className="tab-icon-wrap">
                <Icon className="tab-icon" />
                {!!badges[tab.key] && (
                  <span className="tab-badge" data-testid={`tab-badge-${tab.key}`}>
                    {Math.min(badges[tab.key] ?? 0, 99)}
                  </span>
                )}
              </span>
              <span className="tab-label">{tab.text}</span>
            </AppNavLink>
          );
        })}
      </nav>
    </div>
  );
}
