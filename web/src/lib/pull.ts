import type { PullStatus } from 'antd-mobile/es/components/pull-to-refresh';

/** The spec's pull-to-refresh states (section 4). */
export type SpecPullState = 'normal' | 'pulling' | 'loosing' | 'loading' | 'success';

/** Maps antd-mobile's PullToRefresh status to the spec's state; no status means normal. */
export function specPullState(status: PullStatus | undefined): SpecPullState {
  switch (status) {
    case 'pulling':
      return 'pulling';
    case 'canRelease':
      return 'loosing';
    case 'refreshing':
      return 'loading';
    case 'complete':
      return 'success';
    default:
      return 'normal';
  }
}
