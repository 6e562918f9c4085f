import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, type BodyOf } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';

// Copy trading's calls, typed by the schema generated from api/openapi.yaml.

type S = components['schemas'];
export type Mentor = S['Mentor'];
export type MentorLevel = S['MentorLevel'];
export type Follow = S['Follow'];
export type FollowDetail = S['FollowDetail'];
export type CopyTradeRules = S['CopyTradeRules'];
export type FollowBody = BodyOf<'/api/vue/copytrade/follows'>;
export type ProfileBody = BodyOf<'/api/vue/copytrade/profile'>;

/** Every copy-trade query lives under ['copytrade']; a command invalidates them all. */
export const copyKeys = {
  all: ['copytrade'] as const,
  rules: ['copytrade', 'rules'] as const,
  mentors: (level: string) => ['copytrade', 'mentors', level] as const,
  mentor: (id: string) => ['copytrade', 'mentor', id] as const,
  profile: ['copytrade', 'profile'] as const,
  follows: (state: string) => ['copytrade', 'follows', state] as const,
  follow: (id: string) => ['copytrade', 'follow', id] as const,
};

export const copyApi = {
  follow: (body: FollowBody, idempotencyKey: string) => api.post('/api/vue/copytrade/follows', body, { idempotencyKey }),
  stop: (followId: string, closePositions: boolean, idempotencyKey: string) =>
    api.post('/api/vue/copytrade/follows/{followId}/stop', { closePositions }, { params: { followId }, idempotencyKey }),
  setProfile: (body: ProfileBody, idempotencyKey: string) => api.post('/api/vue/copytrade/profile', body, { idempotencyKey }),
};

export function useCopyRules() {
  return useQuery({ queryKey: copyKeys.rules, queryFn: ({ signal }) => api.get('/api/vue/copytrade/rules', { signal }) });
}

/** The mentors (of one level when level is set), by copy amount. */
export function useMentors(level: MentorLevel | '') {
  return useQuery({
    queryKey: copyKeys.mentors(level),
    queryFn: ({ signal }) => api.get('/api/vue/copytrade/mentors', { query: level ? { level } : {}, signal }),
  });
}

export function useMentor(id: string) {
  return useQuery({
    queryKey: copyKeys.mentor(id),
    enabled: id !== '',
    queryFn: ({ signal }) => api.get('/api/vue/copytrade/mentors/{mentorId}', { params: { mentorId: id }, signal }),
  });
}

export function useMyMentor() {
  return useQuery({ queryKey: copyKeys.profile, queryFn: ({ signal }) => api.get('/api/vue/copytrade/profile', { signal }) });
}

/** The member's follows, newest first, page by page. */
export function useMyFollows(state: Follow['state'] | '') {
  return useInfiniteQuery({
    queryKey: copyKeys.follows(state),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.get('/api/vue/copytrade/follows', { query: state ? { page: pageParam, state } : { page: pageParam }, signal }),
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
  });
}

/** One follow, refreshed every few seconds while in progress (mirrored orders arrive). */
export function useFollow(id: string) {
  return useQuery({
    queryKey: copyKeys.follow(id),
    enabled: id !== '',
    queryFn: ({ signal }) => api.get('/api/vue/copytrade/follows/{followId}', { params: { followId: id }, signal }),
    refetchInterval: (q) => {
      const state = q.state.data?.follow.state;
      return state === 'in_progress' || state === 'stopping' ? 2000 : false;
    },
  });
}
