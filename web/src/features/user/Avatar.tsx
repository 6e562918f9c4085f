import { useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, useRef } from 'react';
import { AuthedImage } from '@/components/AuthedImage';
import { useAction } from '@/lib/action';
import { api } from '@/lib/api/client';
import { queryKeys } from '@/lib/query';
import { toast, toastMessage } from '@/lib/toast';
import { checkImageFile } from '@/lib/validation';
import { useWalletT } from '@/domain/wallet/texts';

/**
 * The member's avatar on mine, and its change: the picture goes through the proofs' upload path
 * (POST /api/vue/files: checked by content, re-encoded, within the quota), then becomes the avatar
 * (POST /api/vue/user/avatar). Like every upload it is served only to its owner and ops.
 */
export function Avatar({ fileId, account }: { fileId: string; account: string }) {
  const w = useWalletT();
  const qc = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const set = useAction((body: { fileId: string }, key) => api.post('/api/vue/user/avatar', body, { idempotencyKey: key }), {
    onSuccess: () => {
      toast.show(w('mine.avatarUpdated'));
      void qc.invalidateQueries({ queryKey: queryKeys.userInfo });
    },
  });
  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const bad = checkImageFile(file);
    if (bad) {
      toastMessage(bad);
      return;
    }
    try {
      const { id } = await api.upload(file);
      set.run({ fileId: id });
    } catch {
      // The client has shown the server's refusal.
    }
  };
  return (
    <div className="avatar-box">
      {fileId ? (
        <AuthedImage id={fileId} testId="user-avatar" width={56} height={56} />
      ) : (
        <div className="avatar-empty" data-testid="user-avatar-empty" aria-label={w('mine.avatar')}>
          {(account.slice(-2) || '?').toUpperCase()}
        </div>
      )}
      <button type="button" className="avatar-change" data-testid="avatar-change" disabled={set.pending} onClick={() => input.current?.click()}>
        {w('mine.avatarChange')}
      </button>
      <input ref={input} type="file" hidden accept="image/jpeg,image/png,image/webp" data-testid="avatar-input" onChange={(e) => void onFile(e)} />
    </div>
  );
}
