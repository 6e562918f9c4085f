import { useQueryClient } from '@tanstack/react-query';
import { Button, Dialog } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '@/components/AppLink';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { TextField } from '@/components/TextField';
import { useAction } from '@/lib/action';
import { newIdempotencyKey } from '@/lib/api/client';
import { type WatchlistGroup, watchlistApi, watchlistKeys, useWatchlists } from './api';
import { useWatchlistT } from './texts';
import './watchlist.css';

function useRefresh() {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: watchlistKeys.all });
    void qc.invalidateQueries({ queryKey: watchlistKeys.favorites });
  };
}

function groupName(g: WatchlistGroup, t: ReturnType<typeof useWatchlistT>): string {
  return g.name !== '' ? g.name : t('defaultName');
}

/** A one-field form: a name or a code, and its button. */
function OneField(p: { label: string; testId: string; button: string; initial?: string; placeholder?: string; onSubmit: (v: string) => void; pending: boolean; children?: React.ReactNode }) {
  const [v, setV] = useState(p.initial ?? '');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    p.onSubmit(v.trim());
  };
  return (
    <form className="wl-form" onSubmit={submit} noValidate data-testid={p.testId}>
      <TextField label={p.label} testId={`${p.testId}-input`} value={v} onChange={setV} placeholder={p.placeholder} maxLength={40} />
      {p.children}
      <Button color="primary" size="small" type="submit" loading={p.pending} data-testid={`${p.testId}-submit`}>
        {p.button}
      </Button>
    </form>
  );
}

/** The member's watchlist groups: create, rename and delete groups; add stocks to one or more; reorder and pin. */
export default function WatchlistPage() {
  const t = useWatchlistT();
  const { i18n } = useTranslation();
  const q = useWatchlists();
  const refresh = useRefresh();
  const [selected, setSelected] = useState('default');
  const [renaming, setRenaming] = useState(false);
  const [also, setAlso] = useState<string[]>([]);
  const groups = q.data?.groups ?? [];
  const group = groups.find((g) => g.id === selected) ?? groups[0];

  const create = useAction((name: string, key: string) => watchlistApi.create(name, key), {
    onSuccess: (r) => {
      refresh();
      setSelected(r.groupId);
    },
  });
  const rename = useAction((v: { id: string; name: string }, key: string) => watchlistApi.rename(v.id, v.name, key), {
    onSuccess: () => {
      refresh();
      setRenaming(false);
    },
  });
  const remove = useAction((id: string, key: string) => watchlistApi.remove(id, key), {
    onSuccess: () => {
      refresh();
      setSelected('default');
    },
  });
  // Adding to several groups: one request per group, each with its own key.
  const add = useAction(
    async (v: { symbol: string; groups: string[] }, key: string) => {
      for (const [i, g] of v.groups.entries()) await watchlistApi.add(g, v.symbol, i === 0 ? key : newIdempotencyKey());
    },
    { onSuccess: refresh },
  );
  const act = useAction(
    (v: { symbol: string; op: 'up' | 'down' | 'pin' | 'unpin' | 'drop'; index: number }, key: string) => {
      const id = group?.id ?? 'default';
      switch (v.op) {
        case 'up':
          return watchlistApi.move(id, v.symbol, Math.max(0, v.index - 1), key);
        case 'down':
          return watchlistApi.move(id, v.symbol, v.index + 1, key);
        case 'pin':
        case 'unpin':
          return watchlistApi.pin(id, v.symbol, v.op === 'pin', key);
        case 'drop':
          return watchlistApi.drop(id, v.symbol, key);
      }
    },
    { onSuccess: refresh },
  );

  const others = groups.filter((g) => g.id !== group?.id);
  return (
    <Page
      title={t('title')}
      testId="watchlist-page"
      right={
        <AppLink to="/market/favo" data-testid="to-favorites">
          {t('favorites')}
        </AppLink>
      }
    >
      {q.isPending || !group ? (
        <ListLoading />
      ) : (
        <>
          <div className="wl-groups" role="tablist">
            {groups.map((g) => (
              <button
                key={g.id}
                type="button"
                role="tab"
                aria-selected={g.id === group.id}
                className={g.id === group.id ? 'wl-group active' : 'wl-group'}
                data-testid="wl-group"
                data-id={g.id}
                data-name={g.name}
                onClick={() => {
                  setSelected(g.id);
                  setRenaming(false);
                  setAlso([]);
                }}
              >
                <span data-text="data">{groupName(g, t)}</span> <span className="muted">{g.symbols.length}</span>
              </button>
            ))}
          </div>
          <div className="muted wl-meta" data-testid="wl-meta">
            {t('groups', { n: groups.length, max: q.data?.maxGroups })} · {t('count', { n: group.symbols.length, max: q.data?.maxSymbols })}
          </div>

          <div className="card">
            <OneField
              key={`add-${group.id}`}
              label={t('addSymbol')}
              testId="wl-add"
              button={t('add')}
              placeholder={t('symbolPlaceholder')}
              pending={add.pending}
              onSubmit={(v) => v !== '' && add.run({ symbol: v.toUpperCase(), groups: [group.id, ...also] })}
            >
              {others.length > 0 ? (
                <div className="wl-also">
                  <span className="muted">{t('alsoIn')}</span>
                  {others.map((g) => (
                    <label key={g.id} className="wl-also-item">
                      <input
                        type="checkbox"
                        data-testid={`wl-also-${g.id}`}
                        checked={also.includes(g.id)}
                        onChange={(e) => setAlso((a) => (e.target.checked ? [...a, g.id] : a.filter((x) => x !== g.id)))}
                      />
                      <span data-text="data">{groupName(g, t)}</span>
                    </label>
                  ))}
                </div>
              ) : null}
            </OneField>
          </div>

          <div className="wl-list" data-testid="wl-list" data-group={group.id}>
            {group.symbols.length === 0 ? (
              <ListEmpty text={t('empty')} />
            ) : (
              group.symbols.map((s, i) => (
                <div key={s.symbol} className={s.pinned ? 'wl-row pinned' : 'wl-row'} data-testid="wl-row" data-symbol={s.symbol} data-pinned={s.pinned ? 'true' : 'false'}>
                  <AppLink to={`/market/marketDetail?symbol=${encodeURIComponent(s.symbol)}`} className="wl-name">
                    <span data-text="data">{i18n.language === 'en' ? s.nameEn : s.name}</span>
                    <span className="muted num">{s.symbol}</span>
                  </AppLink>
                  <div className="wl-actions">
                    <button type="button" aria-label={t('up')} data-testid="wl-up" disabled={i === 0 || act.pending} onClick={() => act.run({ symbol: s.symbol, op: 'up', index: i })}>
                      ↑
                    </button>
                    <button
                      type="button"
                      aria-label={t('down')}
                      data-testid="wl-down"
                      disabled={i === group.symbols.length - 1 || act.pending}
                      onClick={() => act.run({ symbol: s.symbol, op: 'down', index: i })}
                    >
                      ↓
                    </button>
                    <button
                      type="button"
                      aria-label={s.pinned ? t('unpin') : t('pin')}
                      aria-pressed={s.pinned}
                      data-testid="wl-pin"
                      disabled={act.pending}
                      onClick={() => act.run({ symbol: s.symbol, op: s.pinned ? 'unpin' : 'pin', index: i })}
                    >
                      {s.pinned ? '★' : '☆'}
                    </button>
                    <button type="button" aria-label={t('drop')} data-testid="wl-drop" disabled={act.pending} onClick={() => act.run({ symbol: s.symbol, op: 'drop', index: i })}>
                      ✕
                    </button>
                  </div>
                </div>
              ))
            )}
          </div>

          <div className="card">
            {renaming ? (
              <OneField
                key={`rename-${group.id}`}
                label={t('groupName')}
                testId="wl-rename"
                button={t('rename')}
                initial={groupName(group, t)}
                pending={rename.pending}
                onSubmit={(name) => rename.run({ id: group.id, name })}
              />
            ) : (
              <div className="wl-group-actions">
                <Button size="small" data-testid="wl-rename-open" onClick={() => setRenaming(true)}>
                  {t('rename')}
                </Button>
                {group.isDefault ? null : (
                  <Button
                    size="small"
                    color="danger"
                    fill="outline"
                    data-testid="wl-delete"
                    loading={remove.pending}
                    onClick={() =>
                      void Dialog.confirm({ content: t('removeConfirm', { name: groupName(group, t) }), confirmText: t('remove'), onConfirm: () => remove.run(group.id) })
                    }
                  >
                    {t('remove')}
                  </Button>
                )}
              </div>
            )}
          </div>

          <div className="card">
            <OneField label={t('groupName')} testId="wl-create" button={t('newGroup')} pending={create.pending} onSubmit={(name) => create.run(name)} />
          </div>
        </>
      )}
    </Page>
  );
}
