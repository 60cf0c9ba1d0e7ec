import { useRef, useState, type ReactNode } from 'react';

/**
 * A button whose action runs only after the person confirms it in a modal dialog (native <dialog>:
 * focus is trapped and Escape cancels).
 */
export function ConfirmButton(props: {
  label: string;
  question: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => Promise<void> | void;
  disabled?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await props.onConfirm();
    } finally {
      setBusy(false);
      dialog.current?.close();
    }
  };
  return (
    <>
      <button
        type="button"
        className={props.danger ? 'danger' : 'secondary'}
        disabled={props.disabled || busy}
        onClick={() => dialog.current?.showModal()}
      >
        {props.label}
      </button>
      <dialog ref={dialog} className="confirm" aria-label={props.label}>
        <p>{props.question}</p>
        <div className="row">
          <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="button" className={props.danger ? 'danger' : undefined} disabled={busy} onClick={() => void confirm()}>
            {props.confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}
