import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useNavigate } from 'react-router-dom';
import { ConfirmButton } from '@/components/ConfirmButton';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { useAction } from '@/lib/action';
import { request } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import { taipeiTime } from '@/lib/filters';
import { translateMessage } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useWalletT } from '@/domain/wallet/texts';
import { type Card, useCards } from '@/domain/wallet/api';
import { walletKeys } from '@/domain/wallet/keys';
import { bankName } from '@/domain/wallet/banks';
import { useTranslation } from 'react-i18next';
import '@/domain/wallet/wallet.css';

function CardItem({ c }: { c: Card }) {
  const w = useWalletT();
  const { i18n } = useTranslation();
  const qc = useQueryClient();
  // The client's typed helpers have no DELETE; the answer is the schema's CommandResult.
  const unbind = useAction(
    (_: void, key) => request<components['schemas']['CommandResult']>({ method: 'DELETE', url: `/api/vue/user/cards/${encodeURIComponent(c.id)}`, idempotencyKey: key }),
    {
      onSuccess: () => {
        toast.show(translateMessage('card_unbound'));
        void qc.invalidateQueries({ queryKey: walletKeys.cards });
      },
    },
  );
  return (
    <div className="bank-card" data-testid="bank-card" data-card-id={c.id} data-last4={c.last4}>
      <div className="bank-card-head">
        <strong data-testid="bank-card-bank">{bankName(c.bankCode, i18n.language) ?? c.bankName}</strong>
        <span className="muted" data-testid="bank-card-branch">
          {w('cards.branch')} <span className="num">{c.branch}</span>
        </span>
      </div>
      <div className="bank-card-number num" data-testid="bank-card-number">
        {c.cardNumberMasked}
      </div>
      <div className="bank-card-foot">
        <span>
          {w('cards.holder')} {c.holderName}
        </span>
        <span>
          {w('cards.bankCode')} <span className="num">{c.bankCode}</span>
        </span>
      </div>
      {c.ifsc || c.upi ? (
        <div className="bank-card-foot">
          {c.ifsc ? <span>{`${w('cards.ifsc')} ${c.ifsc}`}</span> : <span />}
          {c.upi ? <span>{`${w('cards.upi')} ${c.upi}`}</span> : null}
        </div>
      ) : null}
      <div className="bank-card-foot">
        <span className="muted">
          {w('cards.boundAt')} {taipeiTime(c.boundAt)}
        </span>
        <ConfirmButton
          size="mini"
          fill="outline"
          className="bank-card-unbind"
          data-testid="bank-card-unbind"
          loading={unbind.pending}
          label={w('cards.unbind')}
          question={w('cards.unbindConfirm', { bank: c.bankName, last4: c.last4 })}
          onConfirm={() => unbind.run()}
        />
      </div>
    </div>
  );
}

/** Bank card management: the bound cards (numbers masked), unbind with confirmation, add. */
export default function BankCardPage() {
  const w = useWalletT();
  const navigate = useNavigate();
  const cards = useCards();
  return (
    <Page title={w('cards.title')} testId="bank-cards-page">
      {cards.isPending ? (
        <ListLoading />
      ) : !cards.data?.length ? (
        <ListEmpty text={w('cards.empty')} />
      ) : (
        <div data-testid="bank-card-list">
          {cards.data.map((c) => (
            <CardItem key={c.id} c={c} />
          ))}
        </div>
      )}
      <Button block color="primary" size="large" shape="rounded" data-testid="bank-card-add" onClick={() => void navigate('/user/WithCard')}>
        {w('cards.add')}
      </Button>
    </Page>
  );
}
