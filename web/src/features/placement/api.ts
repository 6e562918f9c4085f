import { useQuery } from '@tanstack/react-query';
import { api, type BodyOf, type DataOf } from '@/lib/api/client';

export type Placement = DataOf<'/api/vue/placement/placements', 'get'>[number];
export type Application = DataOf<'/api/vue/placement/records', 'get'>[number];
export type PlacementForm = BodyOf<'/api/vue/ops/placement/placements'>;

export const placementKeys = {
  all: ['placement'] as const,
  list: ['placement', 'list'] as const,
  records: ['placement', 'records'] as const,
  ops: ['placement', 'ops'] as const,
  opsApplications: (id: string) => ['placement', 'ops', 'applications', id] as const,
  audit: ['placement', 'audit'] as const,
  check: (id: string) => ['placement', 'check', id] as const,
};

export function usePlacements() {
  return useQuery({ queryKey: placementKeys.list, queryFn: ({ signal }) => api.get('/api/vue/placement/placements', { signal }) });
}

export function usePlacementRecords() {
  return useQuery({ queryKey: placementKeys.records, queryFn: ({ signal }) => api.get('/api/vue/placement/records', { signal }) });
}

export function applyPlacement(id: string, lots: number, idempotencyKey: string) {
  return api.post('/api/vue/placement/placements/{placementId}/apply', { lots }, { params: { placementId: id }, idempotencyKey });
}

export function useOpsPlacements() {
  return useQuery({ queryKey: placementKeys.ops, queryFn: ({ signal }) => api.get('/api/vue/ops/placement/placements', { signal }) });
}

export function useOpsApplications(id: string) {
  return useQuery({
    queryKey: placementKeys.opsApplications(id),
    enabled: id !== '',
    queryFn: ({ signal }) => api.get('/api/vue/ops/placement/placements/{placementId}/applications', { params: { placementId: id }, signal }),
  });
}

export function offerPlacement(form: PlacementForm, idempotencyKey: string) {
  return api.post('/api/vue/ops/placement/placements', form, { idempotencyKey });
}

export function requestAllotment(id: string, idempotencyKey: string) {
  return api.post('/api/vue/ops/placement/placements/{placementId}/allot', {}, { params: { placementId: id }, idempotencyKey });
}

export function useAuditPlacements() {
  return useQuery({ queryKey: placementKeys.audit, queryFn: ({ signal }) => api.get('/api/vue/audit/placement/placements', { signal }) });
}

export function useAllotmentCheck(id: string) {
  return useQuery({
    queryKey: placementKeys.check(id),
    enabled: id !== '',
    queryFn: ({ signal }) => api.get('/api/vue/audit/placement/placements/{placementId}/allotment', { params: { placementId: id }, signal }),
  });
}
