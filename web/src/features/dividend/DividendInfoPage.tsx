import { Button, Input } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { displayName } from '@/domain/market/format';
import { money } from '@/lib/filters';
import { currentLang } from '@/lib/i18n';
import { useDividendInfo } from './api';
import { cleanCode, frequencyKey } from './format';
import { DividendNav, EventCard, Row } from './parts';
import { useDividendT } from './texts';
import './dividend.css';

/** /common/dividendInfo?code=: one stock's dividend policy, yield and history. */
export default function DividendInfoPage() {
  const dt = useDividendT();
  const [params, setParams] = useSearchParams();
  const code = cleanCode(params.get('code') ?? '');
  const [typed, setTyped] = useState(code);
  const q = useDividendInfo(code);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const c = cleanCode(typed);
    if (c) setParams({ code: c });
  };
  const d = q.data;
  return (
    <Page
      title={
        d ? (
          <>
            <span data-testid="quote-name">{displayName(d, currentLang())}</span> {d.symbol}
          </>
        ) : (
          dt('history')
        )
      }
      testId="dividend-info-page"
    >
      <DividendNav here="/common/dividendInfo" />
      <form className="dividend-search" onSubmit={onSubmit}>
        <Input value={typed} onChange={setTyped} placeholder={dt('search')} data-testid="dividend-code" />
        <Button size="small" color="primary" type="submit" data-testid="dividend-code-go">
          {dt('go')}
        </Button>
      </form>
      {code === '' ? null : q.isPending ? (
        <ListLoading />
      ) : !d ? (
        <ListEmpty text={dt('empty')} />
      ) : (
        <>
          <div className="record" data-testid="dividend-info">
            <Row label={dt('price')}>{money(d.price)}</Row>
            <Row label={dt('frequencyLabel')}>{dt(frequencyKey(d.pays ? d.frequency : ''))}</Row>
            <Row label={dt('trailing')}>{dt('perShare', { v: d.trailingCash })}</Row>
            <Row label={dt('yield')} testId="dividend-info-yield">
              {d.yield}%
            </Row>
          </div>
          <h3 className="dividend-heading">{dt('history')}</h3>
          <div className="record-list" data-testid="dividend-history">
            {d.items.length === 0 ? <ListEmpty text={dt('noDividend')} /> : d.items.map((e) => <EventCard key={e.id} e={e} showName={false} />)}
          </div>
        </>
      )}
    </Page>
  );
}
