import { RightOutline } from 'antd-mobile-icons';
import { AppLink } from '@/components/AppLink';
import { useNewsUnread } from '@/domain/news/api';
import { useNewsT } from '@/domain/news/texts';
import { NewsList } from './NewsList';

/** The news tab (/home/moreNews): the articles, and the way to the notices with their unread count. */
export default function MoreNewsPage() {
  const t = useNewsT();
  const unread = useNewsUnread().data?.notices ?? 0;
  return (
    <div className="page" data-testid="more-news-page">
      <div className="news-head">
        <span className="news-head-title">{t('newsTitle')}</span>
      </div>
      <div className="page-body">
        <AppLink to="/home/notice" className="card news-notices-link" data-testid="news-notices-link">
          <span>{t('noticesTitle')}</span>
          <span className="news-notices-right">
            {unread > 0 && (
              <span className="news-badge" data-testid="news-notices-unread">
                {t('unreadCount', { count: unread })}
              </span>
            )}
            <RightOutline />
          </span>
        </AppLink>
        <NewsList kind="article" />
      </div>
    </div>
  );
}
