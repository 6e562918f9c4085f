import { useTranslation } from 'react-i18next';
import { messageKey } from '@/lib/validation';

/** The first validation message of a form, in a fixed-height slot (no layout shift). */
export function FormError({ errorKey }: { errorKey: string | null }) {
  const { t } = useTranslation();
  return (
    <div className="field-error" data-testid="form-error" role={errorKey ? 'alert' : undefined}>
      {errorKey ? t(messageKey(errorKey) as 'common.error') : ''}
    </div>
  );
}
