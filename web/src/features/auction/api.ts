import { useQuery } from '@tanstack/react-query';
import { api, type BodyOf, type DataOf } from '@/lib/api/client';

export type Auction = DataOf<'/api/vue/auction/auctions', 'get'>[number];
export type Bid = DataOf<'/api/vue/auction/records', 'get'>[number];
export type AuctionForm = BodyOf<'/api/vue/ops/auction/auctions'>;

export const auctionKeys = {
  all: ['auction'] as const,
  list: ['auction', 'list'] as const,
  one: (id: string) => ['auction', 'one', id] as const,
  records: ['auction', 'records'] as const,
  ops: ['auction', 'ops'] as const,
  opsBids: (id: string) => ['auction', 'ops', 'bids', id] as const,
  audit: ['auction', 'audit'] as const,
  check: (id: string) => ['auction', 'check', id] as const,
};

export function useAuctions() {
  return useQuery({ queryKey: auctionKeys.list, queryFn: ({ signal }) => api.get('/api/vue/auction/auctions', { signal }) });
}

export function useAuction(id: string) {
  return useQuery({
    queryKey: auctionKeys.one(id),
    enabled: id !== '',
    queryFn: ({ signal }) => api.get('/api/vue/auction/auctions/{auctionId}', { params: { auctionId: id }, signal }),
  });
}

export function useBidRecords() {
  return useQuery({ queryKey: auctionKeys.records, queryFn: ({ signal }) => api.get('/api/vue/auction/records', { signal }) });
}

export function placeBid(id: string, body: { price: string; lots: number }, idempotencyKey: string) {
  return api.post('/api/vue/auction/auctions/{auctionId}/bid', body, { params: { auctionId: id }, idempotencyKey });
}

export function useOpsAuctions() {
  return useQuery({ queryKey: auctionKeys.ops, queryFn: ({ signal }) => api.get('/api/vue/ops/auction/auctions', { signal }) });
}

export function useOpsBids(id: string) {
  return useQuery({
    queryKey: auctionKeys.opsBids(id),
    enabled: id !== '',
    queryFn: ({ signal }) => api.get('/api/vue/ops/auction/auctions/{auctionId}/bids', { params: { auctionId: id }, signal }),
  });
}

export function listAuction(form: AuctionForm, idempotencyKey: string) {
  return api.post('/api/vue/ops/auction/auctions', form, { idempotencyKey });
}

export function useAuditAuctions() {
  return useQuery({ queryKey: auctionKeys.audit, queryFn: ({ signal }) => api.get('/api/vue/audit/auction/auctions', { signal }) });
}

export function useAwardCheck(id: string) {
  return useQuery({
    queryKey: auctionKeys.check(id),
    enabled: id !== '',
    queryFn: ({ signal }) => api.get('/api/vue/audit/auction/auctions/{auctionId}/award', { params: { auctionId: id }, signal }),
  });
}
