// Edits not saved yet are not dropped without a word: while a screen has
// some, going to another screen asks first — a link of the console (a click
// or Enter on it), the back and forward buttons, an address typed — and
// closing or reloading the tab gets the browser's own "Leave site?" question.
//
// A link is asked about before it is followed (its click, in the capture
// phase): staying leaves no trace in the history. The back button has
// already moved when the hash changes: its hashchange is caught before the
// router's listener (router.ts) — listeners of the window run in the order
// they were added, and these are added when this module loads, before the
// console renders — which then never hears of it, and the address goes back
// to the screen's own. window.confirm is the browser's dialog: modal,
// announced and keyboard-operable everywhere, and it answers at once, as
// stopping a change needs.
import { useEffect, useId } from 'react';

/** The screens' unsaved edits now, by guard: what each would lose. */
const unsaved = new Map<string, string>();
/** the address a link was allowed to go to: its hash change passes without a second question */
let allowed: string | null = null;

/** Whether the person agrees to lose the edits; yes when there are none. */
function mayLeave(): boolean {
  if (unsaved.size === 0) return true;
  const lost = [...new Set(unsaved.values())].join('\n');
  return window.confirm(`${lost}\n\nLeave this page and lose them?`);
}

/** A click on a link to another screen of this page (only its hash differs), the usual way (no new tab). */
function screenLink(e: MouseEvent): URL | null {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return null;
  const link = e.target instanceof Element ? e.target.closest('a[href]') : null;
  if (!(link instanceof HTMLAnchorElement) || (link.target && link.target !== '_self')) return null;
  const to = new URL(link.href);
  const here = new URL(location.href);
  if (to.origin + to.pathname + to.search !== here.origin + here.pathname + here.search) return null;
  return to.hash === here.hash ? null : to;
}

function onClick(e: MouseEvent) {
  if (unsaved.size === 0) return;
  const to = screenLink(e);
  if (!to) return;
  if (mayLeave()) allowed = to.href;
  else e.preventDefault();
}

function onHashChange(e: HashChangeEvent) {
  const asked = allowed === e.newURL;
  allowed = null;
  if (asked || mayLeave()) return;
  e.stopImmediatePropagation();
  history.replaceState(history.state, '', e.oldURL);
}

function onBeforeUnload(e: BeforeUnloadEvent) {
  if (unsaved.size === 0) return;
  e.preventDefault();
  // older browsers ask only when a value is returned
  e.returnValue = '';
}

// always listening (each returns at once while nothing is unsaved), from before the router's first listener
document.addEventListener('click', onClick, { capture: true });
addEventListener('hashchange', onHashChange, { capture: true });
addEventListener('beforeunload', onBeforeUnload);

/**
 * While `dirty`, leaving the screen asks first. `what` says what would be
 * lost, e.g. "The rules you changed are not saved."
 */
export function useUnsavedGuard(dirty: boolean, what: string): void {
  const id = useId();
  useEffect(() => {
    if (!dirty) return;
    unsaved.set(id, what);
    return () => {
      unsaved.delete(id);
    };
  }, [dirty, what, id]);
}
