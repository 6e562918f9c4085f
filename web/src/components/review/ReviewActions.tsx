import { Button } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmButton } from '@/components/ConfirmButton';
import { FormError } from '@/components/FormError';
import { useAction } from '@/lib/action';
import { toast } from '@/lib/toast';
import { validateReject } from './validation';

/**
 * Approve (after a confirmation naming what is approved) or reject with a remark the member will
 * see; either one toasts and calls onDone when the server accepted it. Test ids start with
 * `prefix`: -approve, -reject, -reject-remark, -reject-confirm.
 */
export function ReviewActions(p: {
  prefix: string;
  confirmText: string;
  approve: (idempotencyKey: string) => Promise<unknown>;
  reject: (remark: string, idempotencyKey: string) => Promise<unknown>;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [remark, setRemark] = useState('');
  const [err, setErr] = useState<string | null>(null);
  const approve = useAction((_: void, k) => p.approve(k), {
    onSuccess: () => {
      toast.show(t('ops.approved'));
      p.onDone();
    },
  });
  const reject = useAction((r: string, k) => p.reject(r, k), {
    onSuccess: () => {
      toast.show(t('ops.rejected'));
      p.onDone();
    },
  });
  if (open) {
    return (
      <div className="ops-reject">
        <input
          className="ops-remark"
          data-testid={`${p.prefix}-reject-remark`}
          value={remark}
          onChange={(e) => {
            setRemark(e.target.value);
            setErr(null);
          }}
          placeholder={t('ops.remarkPlaceholder')}
          maxLength={200}
        />
        <FormError errorKey={err} />
        <div className="ops-actions">
          <Button size="small" onClick={() => setOpen(false)}>
            {t('common.cancel')}
          </Button>
          <Button
            size="small"
            color="danger"
            loading={reject.pending}
            data-testid={`${p.prefix}-reject-confirm`}
            onClick={() => {
              const fe = validateReject(remark);
              setErr(fe?.key ?? null);
              if (!fe) reject.run(remark.trim());
            }}
          >
            {t('ops.reject')}
          </Button>
        </div>
      </div>
    );
  }
  return (
    <div className="ops-actions">
      <Button size="small" data-testid={`${p.prefix}-reject`} onClick={() => setOpen(true)}>
        {t('ops.reject')}
      </Button>
      <ConfirmButton
        size="small"
        color="primary"
        loading={approve.pending}
        data-testid={`${p.prefix}-approve`}
        label={t('ops.approve')}
        question={p.confirmText}
        onConfirm={() => approve.run()}
      />
    </div>
  );
}
