import { PullToRefresh } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { specPullState } from '@/lib/pull';

/** Pull-to-refresh with the spec's states (normal, pulling, loosing, loading, success). */
export function PullRefresh({ onRefresh, children }: { onRefresh: () => Promise<unknown>; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <PullToRefresh
      onRefresh={onRefresh}
      renderText={(status) => {
        const s = specPullState(status);
        return (
          <span className={`pull-${s}`} data-testid="pull-state" data-state={s}>
            {t(`pull.${s}`)}
          </span>
        );
      }}
    >
      {children}
    </PullToRefresh>
  );
}
