import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';

// The dividend calls, typed by the schema generated from api/openapi.yaml.

type S = components['schemas'];
export type DividendEvent = S['DividendEvent'];
export type DividendInfo = S['DividendInfo'];
export type DividendYield = S['DividendYield'];
export type DividendReceipt = S['DividendReceipt'];
export type DividendReceipts = S['DividendReceipts'];

export const dividendKeys = {
  all: ['dividend'] as const,
  calendar: (kind: string, past: boolean) => ['dividend', 'calendar', kind, past] as const,
  info: (code: string) => ['dividend', 'info', code] as const,
  high: ['dividend', 'high'] as const,
  receipts: ['dividend', 'receipts'] as const,
};

/** Distributions going ex in the next 60 days (or the past 60), all or those with new shares. */
export function useCalendar(kind: 'all' | 'stock', past = false) {
  return useQuery({
    queryKey: dividendKeys.calendar(kind, past),
    queryFn: ({ signal }) => api.get('/api/vue/dividend/calendar', { query: { kind, days: 60, past }, signal }),
  });
}

export function useDividendInfo(code: string) {
  return useQuery({
    queryKey: dividendKeys.info(code),
    enabled: code !== '',
    queryFn: ({ signal }) => api.get('/api/vue/dividend/info', { query: { code }, signal }),
  });
}

export function useHighYield() {
  return useQuery({ queryKey: dividendKeys.high, queryFn: ({ signal }) => api.get('/api/vue/dividend/highYield', { signal }) });
}

export function useReceipts() {
  return useQuery({ queryKey: dividendKeys.receipts, queryFn: ({ signal }) => api.get('/api/vue/dividend/receipts', { signal }) });
}
