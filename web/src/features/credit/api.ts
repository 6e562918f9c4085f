import { useInfiniteQuery } from '@tanstack/react-query';
import { api, type BodyOf } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';

// Credit's calls, typed by the schema generated from api/openapi.yaml.

type S = components['schemas'];
export type CreditSummary = S['CreditSummary'];
export type LoanRecord = S['LoanRecord'];
export type SeatApplication = S['SeatApplication'];
export type BorrowBody = BodyOf<'/api/vue/credit/loans'>;
export type RepayBody = BodyOf<'/api/vue/credit/loans/{orderNo}/repay'>;

/** Every credit query lives under ['credit']; a command invalidates them all. */
export const creditKeys = {
  all: ['credit'] as const,
  summary: ['credit', 'summary'] as const,
  mine: ['credit', 'mine'] as const,
};

export const creditApi = {
  borrow: (body: BorrowBody, idempotencyKey: string) => api.post('/api/vue/credit/loans', body, { idempotencyKey }),
  repay: (orderNo: string, body: RepayBody, idempotencyKey: string) =>
    api.post('/api/vue/credit/loans/{orderNo}/repay', body, { params: { orderNo }, idempotencyKey }),
  applySeat: (idempotencyKey: string) => api.post('/api/vue/credit/seat', {}, { idempotencyKey }),
  approveLoan: (orderNo: string, idempotencyKey: string) =>
    api.post('/api/vue/ops/credit/loans/{orderNo}/approve', {}, { params: { orderNo }, idempotencyKey }),
  rejectLoan: (orderNo: string, remark: string, idempotencyKey: string) =>
    api.post('/api/vue/ops/credit/loans/{orderNo}/reject', { remark }, { params: { orderNo }, idempotencyKey }),
  approveSeat: (orderNo: string, idempotencyKey: string) =>
    api.post('/api/vue/ops/credit/seats/{orderNo}/approve', {}, { params: { orderNo }, idempotencyKey }),
  rejectSeat: (orderNo: string, remark: string, idempotencyKey: string) =>
    api.post('/api/vue/ops/credit/seats/{orderNo}/reject', { remark }, { params: { orderNo }, idempotencyKey }),
};

/** The member's credit now: one query with the wallet and mine (domain/wallet). */
export { useCreditSummary } from '@/domain/wallet/api';

/** The member's loans, newest first, page by page. */
export function useMyLoans() {
  return useInfiniteQuery({
    queryKey: creditKeys.mine,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => api.get('/api/vue/credit/loans', { query: { page: pageParam }, signal }),
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
  });
}
