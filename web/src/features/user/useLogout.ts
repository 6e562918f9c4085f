import { useQueryClient } from '@tanstack/react-query';
import { Dialog } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { api, newIdempotencyKey } from '@/lib/api/client';
import { clearSession } from '@/lib/session';

/** Asks, revokes the session on the server, and goes to login (even if the server is gone). */
export function useLogout(): () => void {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  return () => {
    void Dialog.confirm({
      content: t('user.logoutConfirm'),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
      onConfirm: async () => {
        try {
          await api.post('/api/vue/user/logout', undefined, { idempotencyKey: newIdempotencyKey() });
        } catch {
          // the local session ends anyway
        }
        clearSession();
        qc.clear();
        void navigate('/login/login', { replace: true });
      },
    });
  };
}
