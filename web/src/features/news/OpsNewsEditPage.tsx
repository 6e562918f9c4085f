import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ConfirmButton } from '@/components/ConfirmButton';
import { FormError } from '@/components/FormError';
import { ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { newsApi, newsKeys, type NewsKind, type NewsText, type OpsNewsDetail } from '@/domain/news/api';
import { useNewsT } from '@/domain/news/texts';
import { useAction } from '@/lib/action';
import { taipeiTime } from '@/lib/filters';
import { toast } from '@/lib/toast';
import { ArticleBody } from './ArticleBody';
import { isoToTaipeiLocal, MAX_BODY, MAX_TITLE, taipeiLocalToISO, validateNewsText } from './validation';
import './news.css';

const EMPTY: NewsText = { titleTw: '', titleEn: '', bodyTw: '', bodyEn: '' };
const FIELDS = ['titleTw', 'titleEn', 'bodyTw', 'bodyEn'] as const;

/** Ops write an article or notice (?id= to edit one) and move it through its life. */
export default function OpsNewsEditPage() {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const t = useNewsT();
  const q = useQuery({ queryKey: newsKeys.opsItem(id), queryFn: ({ signal }) => newsApi.opsItem(id, signal), enabled: id !== '' });
  return (
    <Page title={t(id ? 'ops.editTitle' : 'ops.createTitle')} testId="ops-news-edit-page">
      {id && !q.data ? q.isError ? null : <ListLoading /> : <Editor key={id} item={q.data} />}
    </Page>
  );
}

function Editor({ item }: { item?: OpsNewsDetail }) {
  const t = useNewsT();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [kind, setKind] = useState<NewsKind>(item?.kind ?? 'article');
  const [text, setText] = useState<NewsText>(item ? { titleTw: item.titleTw, titleEn: item.titleEn, bodyTw: item.bodyTw, bodyEn: item.bodyEn } : EMPTY);
  const [err, setErr] = useState<string | null>(null);
  const [at, setAt] = useState(() => isoToTaipeiLocal(item?.state === 'scheduled' && item.at ? item.at : new Date(Date.now() + 3600_000).toISOString()));
  const [reason, setReason] = useState('');
  useEffect(() => setErr(null), [text, at]);
  const refresh = () => void qc.invalidateQueries({ queryKey: newsKeys.all });
  const done = (key: 'ops.saved' | 'ops.scheduled' | 'ops.published' | 'ops.withdrawn') => () => {
    toast.show(t(key));
    refresh();
  };
  const save = useAction(
    (_: void, k) => (item ? newsApi.edit(item.id, text, k) : newsApi.draft({ ...text, kind }, k)),
    {
      onSuccess: (r) => {
        done('ops.saved')();
        if (!item) void navigate(`/ops/newsEdit?id=${encodeURIComponent(r.id)}`, { replace: true });
      },
    },
  );
  const schedule = useAction((iso: string, k) => newsApi.schedule(item?.id ?? '', iso, k), { onSuccess: done('ops.scheduled') });
  const publish = useAction((_: void, k) => newsApi.publish(item?.id ?? '', k), { onSuccess: done('ops.published') });
  const withdraw = useAction((r: string, k) => newsApi.withdraw(item?.id ?? '', r, k), { onSuccess: done('ops.withdrawn') });
  const state = item?.state;
  const changed = !item || FIELDS.some((f) => text[f] !== item[f]);
  const onSave = () => {
    const e = validateNewsText(text);
    setErr(e);
    if (!e) save.run();
  };
  const onSchedule = () => {
    const iso = taipeiLocalToISO(at);
    if (!iso) return setErr('news.ops.scheduleRequired');
    schedule.run(iso);
  };
  return (
    <div className="news-form" data-testid="ops-news-form">
      {item && (
        <div className="card">
          <span className={`news-state news-state-${item.state}`} data-testid="ops-news-state">
            {t(`ops.states.${item.state}`)}
          </span>
          {item.at && <span className="muted">{`${t('ops.at')} ${taipeiTime(item.at)}`}</span>}
        </div>
      )}
      <div className="card">
        {!item && (
          <>
            <label htmlFor="news-kind">{t('ops.kind')}</label>
            <select id="news-kind" data-testid="ops-news-kind-input" value={kind} onChange={(e) => setKind(e.target.value as NewsKind)}>
              <option value="article">{t('ops.kinds.article')}</option>
              <option value="notice">{t('ops.kinds.notice')}</option>
            </select>
          </>
        )}
        {FIELDS.map((f) => (
          <div key={f}>
            <label htmlFor={`news-${f}`}>{t(`ops.${f}`)}</label>
            {f.startsWith('title') ? (
              <input id={`news-${f}`} data-testid={`ops-news-${f}`} value={text[f]} maxLength={MAX_TITLE} onChange={(e) => setText({ ...text, [f]: e.target.value })} />
            ) : (
              <textarea id={`news-${f}`} data-testid={`ops-news-${f}`} value={text[f]} maxLength={MAX_BODY} onChange={(e) => setText({ ...text, [f]: e.target.value })} />
            )}
          </div>
        ))}
        <div className="muted" style={{ fontSize: '0.11rem', marginTop: '0.06rem' }}>
          {t('ops.bodyHint')}
        </div>
        <FormError errorKey={err} />
        <div className="news-actions">
          <Button color="primary" size="small" loading={save.pending} disabled={!changed} data-testid="ops-news-save" onClick={onSave}>
            {t('ops.save')}
          </Button>
        </div>
      </div>
      {item && !changed && (
        <div className="card">
          {state !== 'published' && (
            <>
              <label htmlFor="news-at">{t('ops.scheduleAt')}</label>
              <input id="news-at" type="datetime-local" data-testid="ops-news-at" value={at} onChange={(e) => setAt(e.target.value)} />
              <div className="news-actions">
                <Button size="small" loading={schedule.pending} data-testid="ops-news-schedule" onClick={onSchedule}>
                  {t('ops.schedule')}
                </Button>
                <ConfirmButton size="small" color="primary" loading={publish.pending} data-testid="ops-news-publish" label={t('ops.publish')} question={t('ops.publishConfirm')} onConfirm={() => publish.run()} />
              </div>
            </>
          )}
          {(state === 'published' || state === 'scheduled') && (
            <>
              <label htmlFor="news-reason">{t('ops.withdrawReason')}</label>
              <input id="news-reason" data-testid="ops-news-reason" value={reason} maxLength={200} onChange={(e) => setReason(e.target.value)} />
              <div className="news-actions">
                <ConfirmButton
                  size="small"
                  color="danger"
                  loading={withdraw.pending}
                  data-testid="ops-news-withdraw"
                  label={t('ops.withdraw')}
                  question={t('ops.withdrawConfirm')}
                  onConfirm={() => withdraw.run(reason.trim())}
                />
              </div>
            </>
          )}
        </div>
      )}
      <div className="card" data-testid="ops-news-preview">
        <div className="section-title">{t('ops.preview')}</div>
        <h2 className="news-title">{text.titleTw}</h2>
        <ArticleBody html={text.bodyTw} />
        <h2 className="news-title">{text.titleEn}</h2>
        <ArticleBody html={text.bodyEn} />
      </div>
      {item && (
        <div className="card" data-testid="ops-news-history">
          <div className="section-title">{t('ops.history')}</div>
          {item.history.map((h, i) => (
            <div key={i} className="record-row">
              <span>{t(`ops.actions.${h.action as 'draft'}`)}</span>
              <span className="muted">{`${h.actor} · ${taipeiTime(h.at)}`}</span>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
