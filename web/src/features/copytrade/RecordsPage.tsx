import { PagedRecordScreen } from '@/components/RecordScreen';
import { useMyFollows } from './api';
import { FollowCard } from './parts';
import { useCopyT } from './texts';

/** My follow records (/gdindex/dsFllowRecord), newest first. */
export default function RecordsPage() {
  const ct = useCopyT();
  const q = useMyFollows('');
  return (
    <PagedRecordScreen
      title={ct('records')}
      testId="copy-records-page"
      listTestId="copy-records"
      query={q}
      emptyText={ct('recordsEmpty')}
      itemKey={(f) => f.followId}
      render={(f) => <FollowCard f={f} />}
    />
  );
}
