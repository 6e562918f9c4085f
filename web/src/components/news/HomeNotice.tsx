import { AppLink } from '@/components/AppLink';
import { useLatestNotice, useLocalTitle, useNewsUnread } from '@/domain/news/api';
import { useNewsT } from '@/domain/news/texts';
import { taipeiTime } from '@/lib/filters';
import './home-notice.css';

/** Home's notice card: the latest published notice, the member's unread count and the way to all notices. */
export function HomeNotice() {
  const t = useNewsT();
  const title = useLocalTitle();
  const latest = useLatestNotice();
  const unread = useNewsUnread().data?.notices ?? 0;
  const n = latest.data;
  return (
    <div className="card" data-testid="home-notice">
      <div className="section-row">
        <span className="section-title">
          {t('noticesTitle')}
          {unread > 0 && (
            <span className="home-notice-badge" data-testid="home-notice-unread">
              {t('unreadCount', { count: unread })}
            </span>
          )}
        </span>
        <AppLink to="/home/notice" className="muted more-link" data-testid="home-notice-more">
          {t('more')}
        </AppLink>
      </div>
      {n ? (
        <AppLink to={`/home/noticeDetail?id=${encodeURIComponent(n.id)}`} className="home-notice-latest" data-testid="home-notice-latest">
          <span>{title(n)}</span>
          <span className="muted home-notice-time">{taipeiTime(n.publishedAt)}</span>
        </AppLink>
      ) : (
        <div className="muted home-notice-none">{latest.isPending ? '' : t('none')}</div>
      )}
    </div>
  );
}
