import { useEffect, useState, type SyntheticEvent, type ReactNode } from 'react';
import { ConfirmDialog } from './ConfirmDialog.tsx';
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
  /**
   * The form holds unsaved work: Escape, a click outside, the close button and Cancel ask before
   * discarding it, and leaving the page asks the browser's question (docs/decisions/169-dashboard-ui.md).
   */
  dirty?: boolean;
  /** Runs when the member chooses to discard unsaved work (before onClose). */
  onDiscard?: () => void;
  children: ReactNode;
}

export const DISCARD_TITLE = 'Discard your changes?';
export const DISCARD_MESSAGE =
  'What you changed in this form has not been saved. Discard it and close the form?';

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
  dirty = false,
  onDiscard,
  children,
}: FormDialogProps) {
  const [asking, setAsking] = useState(false);
  const requestClose = () => (dirty ? setAsking(true) : onClose());
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  return (
    <Dialog
      open
      onClose={requestClose}
      size={size}
      title={title}
      footer={
        <>
          <button type="button" className="btn btn--secondary" onClick={requestClose}>
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
      <ConfirmDialog
        open={asking}
        title={DISCARD_TITLE}
        message={DISCARD_MESSAGE}
        confirmLabel="Discard changes"
        cancelLabel="Keep editing"
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          onDiscard?.();
          onClose();
        }}
      />
    </Dialog>
  );
}
