import { Page } from '@/components/Page';
import { PullRefresh } from '@/components/PullRefresh';
import { useCalendar } from './api';
import { DividendNav, EventList } from './parts';
import { useDividendT } from './texts';
import './dividend.css';

/** /common/dividend3: the distributions with a stock dividend (ex-rights) going ex in the next 60 days. */
export default function ExRightsPage() {
  const dt = useDividendT();
  const q = useCalendar('stock');
  return (
    <Page title={dt('exRights')} testId="dividend-exrights-page">
      <DividendNav here="/common/dividend3" />
      <PullRefresh onRefresh={() => q.refetch()}>
        <EventList pending={q.isPending} items={q.data} testId="dividend-exrights" />
      </PullRefresh>
    </Page>
  );
}
