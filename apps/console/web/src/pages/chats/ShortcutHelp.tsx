import { forwardRef } from 'react';
import { ESCAPE_HELP, SHORTCUTS } from './keyboard-view';

/**
 * The list of the inbox's keys, in a native modal <dialog> (focus kept inside, Escape closes it):
 * opened with `?` or the "Keyboard shortcuts" button.
 */
export const ShortcutHelp = forwardRef<HTMLDialogElement>(function ShortcutHelp(_props, ref) {
  const close = () => (typeof ref === 'object' ? ref?.current?.close() : undefined);
  return (
    <dialog ref={ref} className="confirm shortcut-help" aria-labelledby="shortcut-help-title">
      <h2 id="shortcut-help-title">Keyboard shortcuts</h2>
      <table className="table">
        <caption className="sr-only">Keys of the inbox</caption>
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">What it does</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.action} data-shortcut={s.action}>
              <td>
                <kbd>{s.label}</kbd>
              </td>
              <td>{s.description}</td>
            </tr>
          ))}
          <tr>
            <td>
              <kbd>Esc</kbd>
            </td>
            <td>{ESCAPE_HELP}</td>
          </tr>
        </tbody>
      </table>
      <p className="muted">The keys do nothing while you type in a field.</p>
      <div className="row">
        <button type="button" onClick={close} autoFocus>
          Close
        </button>
      </div>
    </dialog>
  );
});
