import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { newsApi, newsKeys, type NewsKind } from '@/domain/news/api';
import { useNewsT } from '@/domain/news/texts';
import { newIdempotencyKey } from '@/lib/api/client';
import { taipeiTime } from '@/lib/filters';
import { useRole } from '@/lib/user';
import { ArticleBody } from './ArticleBody';
import './news.css';

/** One published item (?id=), in the current language; a member's first open marks it read. */
export function NewsDetail({ kind }: { kind: NewsKind }) {
  const t = useNewsT();
  const { i18n } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const role = useRole();
  const qc = useQueryClient();
  const q = useQuery({ queryKey: newsKeys.item(id), queryFn: ({ signal }) => newsApi.item(id, signal), enabled: id !== '' });
  const it = q.data;
  const marked = useRef('');
  useEffect(() => {
    if (!it || it.read || role !== 'member' || marked.current === it.id) return;
    marked.current = it.id;
    void newsApi.read(it.id, newIdempotencyKey()).then(() => qc.invalidateQueries({ queryKey: newsKeys.all }));
  }, [it, role, qc]);
  const en = i18n.language === 'en';
  return (
    <Page title={t(kind === 'article' ? 'articleTitle' : 'noticeTitle')} testId={`news-detail-${kind}`}>
      {id === '' || q.isError ? (
        <ListEmpty text={t('empty')} />
      ) : !it ? (
        <ListLoading />
      ) : (
        <article className="card news-article">
          <h2 className="news-title" data-testid="news-title">
            {en ? it.titleEn : it.titleTw}
          </h2>
          <div className="muted news-row-time">{t('published', { time: taipeiTime(it.publishedAt) })}</div>
          <ArticleBody html={en ? it.bodyEn : it.bodyTw} testId="news-body" />
        </article>
      )}
    </Page>
  );
}
