import { AppOutline, BillOutline, HistogramOutline, UserOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router-dom';
import { AppNavLink } from '@/components/AppLink';
import { TABS } from './tabs';

const ICONS = { home: AppOutline, market: HistogramOutline, trade: BillOutline, mine: UserOutline } as const;

/** Tab roots: the page scrolls, the tab bar stays fixed at the bottom. */
export function TabsLayout() {
  const { t } = useTranslation();
  return (
    <div className="tabs-layout">
      <Outlet />
      <nav className="tab-bar" data-testid="tab-bar">
        {TABS.map((tab) => {
          const Icon = ICONS[tab.key];
          return (
            <AppNavLink key={tab.key} to={tab.path} className="tab-item" data-testid={`tab-${tab.key}`}>
              <Icon className="tab-icon" />
              <span>{t(`tabs.${tab.key}`)}</span>
            </AppNavLink>
          );
        })}
      </nav>
    </div>
  );
}
