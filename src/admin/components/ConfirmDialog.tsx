import { Dialog } from './Dialog.tsx';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  /** The safe choice's words (default 'Cancel'). */
  cancelLabel?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** An accessible stand-in for window.confirm: an alertdialog whose safe choice (Cancel) has focus. */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  cancelLabel = 'Cancel',
  busy,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      title={title}
      role="alertdialog"
      size="sm"
      description={<p>{message}</p>}
      footer={
        <>
          <button type="button" className="btn btn--secondary" data-autofocus onClick={onCancel}>
            {cancelLabel}
          </button>
          <button type="button" className="btn btn--destructive" disabled={busy} onClick={onConfirm}>
            {confirmLabel}
          </button>
        </>
      }
    >
      {null}
    </Dialog>
  );
}
