import { Button, Dialog } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { validateReject } from './validation';

/**
 * Approve (after a confirmation naming what is approved) or reject with a remark the member will
 * see. Test ids start with `prefix`: -approve, -reject, -reject-remark, -reject-confirm.
 */
export function ReviewActions(p: { prefix: string; confirmText: string; approving: boolean; rejecting: boolean; onApprove: () => void; onReject: (remark: string) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [remark, setRemark] = useState('');
  const [err, setErr] = useState<string | null>(null);
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
            loading={p.rejecting}
            data-testid={`${p.prefix}-reject-confirm`}
            onClick={() => {
              const fe = validateReject(remark);
              setErr(fe?.key ?? null);
              if (!fe) p.onReject(remark.trim());
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
      <Button
        size="small"
        color="primary"
        loading={p.approving}
        data-testid={`${p.prefix}-approve`}
        onClick={() =>
          void Dialog.confirm({
            content: p.confirmText,
            confirmText: t('ops.approve'),
            cancelText: t('common.cancel'),
            onConfirm: () => p.onApprove(),
          })
        }
      >
        {t('ops.approve')}
      </Button>
    </div>
  );
}
