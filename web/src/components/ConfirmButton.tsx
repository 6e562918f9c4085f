import { Button, type ButtonProps, Dialog } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

type ConfirmButtonProps = Omit<ButtonProps, 'onClick' | 'children'> & {
  /** What the button does: its text, and the text of the dialog's button that goes ahead. */
  label: string;
  /** The question the dialog asks. */
  question: string;
  onConfirm: () => void;
  /** The button's text where it says more than label. */
  children?: ReactNode;
};

/** A button that asks first: onConfirm runs only once the dialog is confirmed (cancel leaves all as it was). */
export function ConfirmButton({ label, question, onConfirm, children, ...button }: ConfirmButtonProps) {
  const { t } = useTranslation();
  return (
    <Button {...button} onClick={() => void Dialog.confirm({ content: question, confirmText: label, cancelText: t('common.cancel'), onConfirm })}>
      {children ?? label}
    </Button>
  );
}
