import { Tabs } from 'antd-mobile';
import { useState } from 'react';
import { Page } from '@/components/Page';
import { PullRefresh } from '@/components/PullRefresh';
import { useCalendar } from './api';
import { DividendNav, EventList } from './parts';
import { useDividendT } from './texts';
import './dividend.css';

/** /common/dividend: the ex-dividend and ex-rights calendar, upcoming and recent. */
export default function DividendCalendarPage() {
  const dt = useDividendT();
  const [tab, setTab] = useState<'upcoming' | 'past'>('upcoming');
  const q = useCalendar('all', tab === 'past');
  return (
    <Page title={dt('calendar')} testId="dividend-calendar-page">
      <DividendNav here="/common/dividend" />
      <Tabs activeKey={tab} onChange={(k) => setTab(k === 'past' ? 'past' : 'upcoming')}>
        <Tabs.Tab title={dt('upcoming')} key="upcoming" data-testid="dividend-tab-upcoming" />
        <Tabs.Tab title={dt('past')} key="past" data-testid="dividend-tab-past" />
      </Tabs>
      <PullRefresh onRefresh={() => q.refetch()}>
        <EventList pending={q.isPending} items={q.data} testId="dividend-calendar" />
      </PullRefresh>
    </Page>
  );
}
