import type { SyntheticEvent, ReactNode } from 'react';
import { Dialog, type DialogProps } from './Dialog.tsx';

export interface FormDialogProps {
  /** The form's id; the submit button in the footer points at it. */
  id: string;
  title: string;
  size?: DialogProps['size'];
  /** The submit button's text when not saving. */
  submitLabel: string;
  /** Saving: the submit button reads 'Saving...' and is aria-disabled. */
  busy: boolean;
  /** Also aria-disable the submit button, e.g. during an image upload. */
  blocked?: boolean;
  onSubmit: (e: SyntheticEvent) => void;
  onClose: () => void;
  /** Layout class of the form. */
  className?: string;
  children: ReactNode;
}

/**
 * An add/edit modal: a Dialog holding one form, with the standard footer
 * (Cancel, then the submit button). The submit button is aria-disabled, not
 * disabled, while saving so it keeps focus; useSubmit ignores the extra clicks.
 */
export function FormDialog({
  id,
  title,
  size,
  submitLabel,
  busy,
  blocked = false,
  onSubmit,
  onClose,
  className = 'form-grid',
  children,
}: FormDialogProps) {
  return (
    <Dialog
      open
      onClose={onClose}
      size={size}
      title={title}
      footer={
        <>
          <button type="button" className="btn btn--secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form={id} className="btn btn--primary" aria-disabled={busy || blocked}>
            {busy ? 'Saving...' : submitLabel}
          </button>
        </>
      }
    >
      <form id={id} onSubmit={onSubmit} noValidate className={className}>
        {children}
      </form>
    </Dialog>
  );
}
