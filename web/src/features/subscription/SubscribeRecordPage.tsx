import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { useRecords } from './api';
import { ApplicationCard } from './ApplicationCard';
import { useSubT } from './texts';

/** The member's applications with their allotment states (/market/subscribeRecord). */
export default function SubscribeRecordPage() {
  const s = useSubT();
  const q = useRecords();
  return (
    <Page title={s('records')} testId="subscribe-record-page">
      {q.isPending ? <ListLoading /> : (q.data ?? []).length === 0 ? <ListEmpty /> : (q.data ?? []).map((a) => <ApplicationCard key={a.applicationNo} a={a} title />)}
    </Page>
  );
}
