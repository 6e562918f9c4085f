import { AppLink } from '@/components/AppLink';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { useQuantProducts } from './api';
import { BacktestFigures, useLocalized } from './parts';
import { useQuantT } from './texts';
import './quant.css';

/** The strategy products, each with its symbols and the figures of its backtest. */
export default function ProductsPage() {
  const qt = useQuantT();
  const q = useQuantProducts();
  const loc = useLocalized();
  return (
    <Page
      title={qt('title')}
      testId="quant-products"
      right={
        <AppLink to="/quant/mine" data-testid="quant-mine-link" className="quant-bar-link">
          {qt('mine')}
        </AppLink>
      }
    >
      {q.isPending ? <ListLoading /> : null}
      {q.data && q.data.length === 0 ? <ListEmpty /> : null}
      {q.data?.map((p) => {
        const l = loc(p);
        return (
          <div className="card" key={p.id} data-testid="quant-product" data-product={p.id}>
            <div className="record-row">
              <span className="quant-name">{l.name}</span>
              <span className="muted num">{p.symbols.join(' · ')}</span>
            </div>
            <p className="muted quant-desc">{l.description}</p>
            <BacktestFigures p={p} />
            <AppLink to={`/quant/product?id=${encodeURIComponent(p.id)}`} className="adm-button adm-button-primary adm-button-block adm-button-shape-rounded quant-open" data-testid={`quant-open-${p.id}`}>
              {qt('details')}
            </AppLink>
          </div>
        );
      })}
    </Page>
  );
}
