import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { useAction } from '@/lib/action';
import { taipeiTime } from '@/lib/filters';
import { alertKeys, alertsApi, useNotifications } from './api';
import { AlertName, useAlertToasts, useCondition } from './AlertsPage';
import { useAlertsT } from './texts';
import './alerts.css';

/** The in-app notifications fired alerts made, newest first, unread ones marked; live while open. */
export default function NotificationsPage() {
  const at = useAlertsT();
  const cond = useCondition();
  const qc = useQueryClient();
  const q = useNotifications();
  useAlertToasts();
  const items = q.data?.items ?? [];
  const through = q.data?.through ?? 0;
  const read = useAction((n: number, key: string) => alertsApi.read(n, key), {
    onSuccess: () => void qc.invalidateQueries({ queryKey: alertKeys.all }),
  });
  const newest = items[0]?.firedPosition ?? 0;
  return (
    <Page
      title={at('notifications')}
      testId="notifications-page"
      right={
        (q.data?.unread ?? 0) > 0 ? (
          <Button size="mini" fill="none" data-testid="notifications-read" loading={read.pending} onClick={() => read.run(newest)}>
            {at('markRead')}
          </Button>
        ) : null
      }
    >
      {q.data ? (
        <div className="muted alert-count" data-testid="notifications-unread" data-unread={q.data.unread}>
          {at('unread', { n: q.data.unread })}
        </div>
      ) : null}
      <div data-testid="notification-list">
        {q.isPending ? (
          <ListLoading />
        ) : items.length === 0 ? (
          <ListEmpty text={at('notificationsEmpty')} />
        ) : (
          items.map((a) => (
            <div
              key={a.id}
              className={(a.firedPosition ?? 0) > through ? 'record alert-note unread' : 'record alert-note'}
              data-testid="notification"
              data-id={a.id}
              data-unread={(a.firedPosition ?? 0) > through ? 'true' : 'false'}
            >
              <div className="record-row">
                <AlertName a={a} />
                <span className="num up-strong">{a.price}</span>
              </div>
              <div className="record-row muted">
                <span className="num">{cond(a)}</span>
                <span className="num">{taipeiTime(a.firedAt)}</span>
              </div>
            </div>
          ))
        )}
      </div>
    </Page>
  );
}
