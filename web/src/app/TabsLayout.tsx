import { AppOutline, BillOutline, HistogramOutline, SoundOutline, UserOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router-dom';
import { AppNavLink } from '@/components/AppLink';
import { useNewsUnread } from '@/domain/news/api';
import { TABS } from './tabs';

const ICONS = { home: AppOutline, market: HistogramOutline, trade: BillOutline, mine: UserOutline, news: SoundOutline } as const;

/** Tab roots: the page scrolls, the tab bar stays fixed at the bottom. */
export function TabsLayout() {
  const { t } = useTranslation();
  const unread = useNewsUnread().data;
  const badges: Partial<Record<(typeof TABS)[number]['key'], number>> = { news: unread ? unread.articles + unread.notices : 0 };
  return (
    <div className="tabs-layout">
      <Outlet />
      <nav className="tab-bar" data-testid="tab-bar">
        {TABS.map((tab) => {
          const Icon = ICONS[tab.key];
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
              <span>{t(`tabs.${tab.key}`)}</span>
            </AppNavLink>
          );
        })}
      </nav>
    </div>
  );
}
