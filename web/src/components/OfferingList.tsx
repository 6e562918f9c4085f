import { Fragment, type ReactNode } from 'react';
import { taipeiTime } from '@/lib/filters';
import { AppLink } from './AppLink';
import { ListEmpty, ListLoading } from './ListState';
import { Page } from './Page';

/**
 * A member's screen of offerings (the lottery's issues, the auctions, the placements): the title
 * with a link to the member's records, the loading and empty states, each offering as render draws
 * it, then what follows the list (children: the rule, say).
 */
export function OfferingList<T>(p: {
  title: string;
  testId: string;
  records: { to: string; testId: string; text: string };
  pending: boolean;
  items: readonly T[];
  emptyText: string;
  itemKey: (item: T) => string;
  render: (item: T) => ReactNode;
  children?: ReactNode;
}) {
  return (
    <Page
      title={p.title}
      testId={p.testId}
      right={
        <AppLink to={p.records.to} data-testid={p.records.testId}>
          {p.records.text}
        </AppLink>
      }
    >
      {p.pending ? (
        <ListLoading />
      ) : p.items.length === 0 ? (
        <ListEmpty text={p.emptyText} />
      ) : (
        p.items.map((it) => <Fragment key={p.itemKey(it)}>{p.render(it)}</Fragment>)
      )}
      {p.children}
    </Page>
  );
}

/** An offering's window in Taipei, month-day and time of its opening and closing. */
export function windowText(opensAt: string, closesAt: string): string {
  return `${taipeiTime(opensAt).slice(5, 16)} ~ ${taipeiTime(closesAt).slice(5, 16)}`;
}
