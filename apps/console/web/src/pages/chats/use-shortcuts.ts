import { useEffect, useRef } from 'react';
import { shortcutFor, typingTarget, type ShortcutAction } from './keyboard-view';

/**
 * The inbox's keys (keyboard-view.ts) while the page is shown: each listed action runs on its key,
 * unless the person is typing in a field, holds Ctrl/Cmd/Alt, or a modal dialog is open; Escape in
 * a field leaves it. Keys without a handler are left to the browser.
 */
export function useShortcuts(handlers: Partial<Record<ShortcutAction, () => void>>): void {
  const current = useRef(handlers);
  current.current = handlers;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const target = e.target instanceof HTMLElement ? e.target : null;
      const action = shortcutFor({
        key: e.key,
        ctrlKey: e.ctrlKey,
        metaKey: e.metaKey,
        altKey: e.altKey,
        isComposing: e.isComposing,
        typing: typingTarget(target),
        dialogOpen: document.querySelector('dialog[open]') !== null,
      });
      if (action === 'leave-field') return target?.blur();
      const run = action && current.current[action];
      if (!run) return;
      e.preventDefault();
      run();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
