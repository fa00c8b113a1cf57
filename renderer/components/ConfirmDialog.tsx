import type { ReactNode } from 'react';
import { Dialog } from './Dialog.js';

interface Props {
  title: string;
  /** The label of the button that takes the step. */
  confirm: string;
  onCancel: () => void;
  onConfirm: () => void;
  /** What the step does, in words. */
  children: ReactNode;
}

/** Asks before a step that cannot be taken back: what it does, then Cancel and the step itself. */
export function ConfirmDialog({ title, confirm, onCancel, onConfirm, children }: Props) {
  return (
    <Dialog title={title} onClose={onCancel}>
      {children}
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="danger" onClick={onConfirm}>
          {confirm}
        </button>
      </div>
    </Dialog>
  );
}
