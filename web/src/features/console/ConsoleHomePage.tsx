import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AppLink } from '@/components/AppLink';
import { ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { api } from '@/lib/api/client';
import { ConsoleNav } from './ConsoleNav';
import './console.css';

/**
 * The ops home: every review queue the server declares, with what waits in it, and the set-up
 * screens. A queue the app has no name for shows its id (a capability added on the server first).
 */
export default function ConsoleHomePage() {
  const { t, i18n } = useTranslation();
  const queues = useQuery({
    queryKey: ['console', 'queues'] as const,
    queryFn: ({ signal }) => api.get('/api/vue/ops/console/queues', { signal }),
    refetchInterval: 30_000,
  });
  return (
    <Page title={t('console.title')} testId="ops-console-page" back={false}>
      <ConsoleNav />
      <h3 className="console-h">{t('console.queues')}</h3>
      {queues.isPending ? (
        <ListLoading />
      ) : (
        <div className="card console-queues">
          {(queues.data ?? []).map((q) => {
            const key = `console.queue.${q.id}`;
            return (
              <AppLink key={q.id} to={q.path} className="kv console-queue" data-testid={`queue-${q.id}`} data-count={q.count}>
                <span>{i18n.exists(key) ? t(key as 'console.title') : q.id}</span>
                <span className={`num badge ${q.count > 0 ? 'badge-pending' : ''}`} data-testid={`queue-${q.id}-count`}>
                  {q.count}
                </span>
              </AppLink>
            );
          })}
        </div>
      )}
    </Page>
  );
}
