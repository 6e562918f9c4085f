import { useQuery } from '@tanstack/react-query';
import { api, type BodyOf, type DataOf } from '@/lib/api/client';

export type Issue = DataOf<'/api/vue/subscription/issues', 'get'>[number];
export type Application = DataOf<'/api/vue/subscription/records', 'get'>[number];
export type IssueForm = BodyOf<'/api/vue/ops/subscription/issues'>;

export const subKeys = {
  all: ['subscription'] as const,
  issues: ['subscription', 'issues'] as const,
  issue: (id: string) => ['subscription', 'issue', id] as const,
  records: ['subscription', 'records'] as const,
  opsIssues: ['subscription', 'ops', 'issues'] as const,
  opsApplications: (id: string) => ['subscription', 'ops', 'applications', id] as const,
  draw: (id: string) => ['subscription', 'draw', id] as const,
};

export function useIssues() {
  return useQuery({ queryKey: subKeys.issues, queryFn: ({ signal }) => api.get('/api/vue/subscription/issues', { signal }) });
}

export function useIssue(id: string) {
  return useQuery({
    queryKey: subKeys.issue(id),
    enabled: id !== '',
    queryFn: ({ signal }) => api.get('/api/vue/subscription/issues/{issueId}', { params: { issueId: id }, signal }),
  });
}

export function useRecords() {
  return useQuery({ queryKey: subKeys.records, queryFn: ({ signal }) => api.get('/api/vue/subscription/records', { signal }) });
}

export function applyFor(id: string, lots: number, idempotencyKey: string) {
  return api.post('/api/vue/subscription/issues/{issueId}/apply', { lots }, { params: { issueId: id }, idempotencyKey });
}

export function useOpsIssues() {
  return useQuery({ queryKey: subKeys.opsIssues, queryFn: ({ signal }) => api.get('/api/vue/ops/subscription/issues', { signal }) });
}

export function useOpsApplications(id: string) {
  return useQuery({
    queryKey: subKeys.opsApplications(id),
    enabled: id !== '',
    queryFn: ({ signal }) => api.get('/api/vue/ops/subscription/issues/{issueId}/applications', { params: { issueId: id }, signal }),
  });
}

export function listIssue(form: IssueForm, idempotencyKey: string) {
  return api.post('/api/vue/ops/subscription/issues', form, { idempotencyKey });
}

export function useDrawCheck(id: string) {
  return useQuery({
    queryKey: subKeys.draw(id),
    enabled: id !== '',
    queryFn: ({ signal }) => api.get('/api/vue/audit/subscription/issues/{issueId}/draw', { params: { issueId: id }, signal }),
  });
}
