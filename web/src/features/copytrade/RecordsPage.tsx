import { RecordScreen } from '@/components/RecordScreen';
import { useMyFollows } from './api';
import { FollowCard } from './parts';
import { useCopyT } from './texts';

/** My follow records (/gdindex/dsFllowRecord), newest first. */
export default function RecordsPage() {
  const ct = useCopyT();
  const q = useMyFollows('');
  return (
    <RecordScreen
      title={ct('records')}
      testId="copy-records-page"
      listTestId="copy-records"
      pending={q.isPending}
      items={q.data?.pages.flatMap((p) => p.items) ?? []}
      emptyText={ct('recordsEmpty')}
      onRefresh={() => q.refetch()}
      itemKey={(f) => f.followId}
      render={(f) => <FollowCard f={f} />}
      pages={q}
    />
  );
}
