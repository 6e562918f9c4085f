import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { api } from '@/lib/api/client';
import { taipeiTime } from '@/lib/filters';
import { ConsoleNav } from './ConsoleNav';
import './console.css';

/** Every configuration change: what, who, when, and the value before and after. */
export default function ChangesPage() {
  const { t } = useTranslation();
  const changes = useQuery({
    queryKey: ['console', 'changes'] as const,
    queryFn: ({ signal }) => api.get('/api/vue/ops/changes', { query: { size: 50 }, signal }),
  });
  return (
    <Page title={t('console.changes')} testId="ops-changes-page">
      <ConsoleNav />
      {changes.isPending ? (
        <ListLoading />
      ) : !changes.data?.items.length ? (
        <ListEmpty />
      ) : (
        changes.data.items.map((c) => (
          <div className="record" key={c.position} data-testid="config-change" data-kind={c.kind} data-subject={c.subject}>
            <div className="record-row">
              <strong>
                {t(`console.kind.${c.kind}`)} · {c.subject}
              </strong>
              <span className="num muted">{taipeiTime(c.at)}</span>
            </div>
            <div className="muted" data-testid="config-change-actor">
              {c.actor}
            </div>
            {c.before ? (
              <div>
                <span className="muted">{t('console.before')}</span>
                <pre className="console-json">{c.before}</pre>
              </div>
            ) : null}
            <div>
              <span className="muted">{t('console.after')}</span>
              <pre className="console-json">{c.after}</pre>
            </div>
          </div>
        ))
      )}
    </Page>
  );
}
