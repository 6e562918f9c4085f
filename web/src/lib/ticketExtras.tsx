import { type ComponentType, type ReactElement, Suspense, useCallback, useMemo, useState } from 'react';

/**
 * A part another feature adds to the order ticket (features/trade), such as a coupon to apply.
 * Features never import each other: a feature declares its extra in its routes.ts, and the ticket
 * renders whatever was declared. The extra's Picker holds the member's choice ('' for none); once
 * the order is placed, afterPlace gets the order number with that choice. The extra reports its
 * own errors (the API client toasts refusals); the order stands either way.
 */
export interface TicketExtraProps {
  value: string;
  onChange: (value: string) => void;
}

export interface TicketExtra {
  key: string;
  Picker: ComponentType<TicketExtraProps>;
  afterPlace: (orderNo: string, value: string) => Promise<unknown>;
}

const extras: TicketExtra[] = [];

/** Declares an extra of the order ticket (once per key). */
export function declareTicketExtra(x: TicketExtra): void {
  if (!extras.some((e) => e.key === x.key)) extras.push(x);
}

/** The declared extras, in declaration order. */
export function ticketExtras(): readonly TicketExtra[] {
  return extras;
}

/** The ticket's extras: their pickers to render, and what to run once an order is placed. */
export function useTicketExtras(): { nodes: ReactElement[]; afterPlace: (orderNo: string) => Promise<void> } {
  const [values, setValues] = useState<Record<string, string>>({});
  const nodes = useMemo(
    () =>
      extras.map((x) => (
        <Suspense key={x.key} fallback={null}>
          <x.Picker value={values[x.key] ?? ''} onChange={(v) => setValues((p) => ({ ...p, [x.key]: v }))} />
        </Suspense>
      )),
    [values],
  );
  const afterPlace = useCallback(
    async (orderNo: string) => {
      await Promise.all(
        extras.map((x) => {
          const v = values[x.key];
          return v ? x.afterPlace(orderNo, v).catch(() => undefined) : undefined;
        }),
      );
    },
    [values],
  );
  return { nodes, afterPlace };
}
