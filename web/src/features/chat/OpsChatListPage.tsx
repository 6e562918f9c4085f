import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Tabs } from 'antd-mobile';
import { useState } from 'react';
import { ListEmpty, ListLoading, MoreOnScroll } from '@/components/ListState';
import { Page } from '@/components/Page';
import { PullRefresh } from '@/components/PullRefresh';
import { api } from '@/lib/api/client';
import { taipeiTime } from '@/lib/filters';
import { useGo } from '@/lib/nav';
import { chatKeys, refreshChats, useChatSocket } from './api';
import { useChatT } from './texts';
import './chat.css';

type Status = 'open' | 'closed';

function Queue({ status }: { status: Status }) {
  const t = useChatT();
  const go = useGo();
  const q = useInfiniteQuery({
    queryKey: chatKeys.queue(status),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => api.get('/api/vue/ops/chats', { query: { status, page: pageParam, size: 20 }, signal }),
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
    staleTime: 0,
  });
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <PullRefresh onRefresh={() => q.refetch()}>
      <div data-testid={`ops-chats-${status}`}>
        {q.isPending ? (
          <ListLoading />
        ) : items.length === 0 ? (
          <ListEmpty />
        ) : (
          <>
            {items.map((c) => (
              <div key={c.account} className="chat-queue-row" data-testid={`ops-chat-${c.account}`} onClick={() => go(`/ops/chats/${encodeURIComponent(c.account)}`)}>
                <div className="chat-queue-main">
                  <div className="num">{c.account}</div>
                  <div className="chat-queue-last muted">
                    {c.lastSide === 'ops' ? `${t('service')}: ` : ''}
                    {c.hasImage && !c.lastText ? t('imageMessage') : c.lastText}
                  </div>
                </div>
                <div className="muted num" style={{ fontSize: 11 }}>
                  {taipeiTime(c.lastAt).slice(5, 16)}
                </div>
                {c.opsUnread > 0 ? <Badge content={c.opsUnread} data-testid={`ops-chat-unread-${c.account}`} /> : null}
              </div>
            ))}
            <MoreOnScroll q={q} />
          </>
        )}
      </div>
    </PullRefresh>
  );
}

/** Ops' queue of conversations, the latest activity first, with the member messages no one read. */
export default function OpsChatListPage() {
  const t = useChatT();
  const qc = useQueryClient();
  const [tab, setTab] = useState<Status>('open');
  useChatSocket(
    (f) => {
      if (f.kind !== 'typing') refreshChats(qc, f);
    },
    () => void qc.invalidateQueries({ queryKey: ['chat', 'queue'] }),
  );
  return (
    <Page title={t('opsTitle')} testId="ops-chats-page">
      <Tabs activeKey={tab} onChange={(k) => setTab(k as Status)}>
        <Tabs.Tab title={t('open')} key="open" data-testid="ops-chats-tab-open" />
        <Tabs.Tab title={t('closedTab')} key="closed" data-testid="ops-chats-tab-closed" />
      </Tabs>
      <Queue key={tab} status={tab} />
    </Page>
  );
}
