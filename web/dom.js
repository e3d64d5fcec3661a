// The page's elements by id, and the three ways a panel speaks: an error box, a status
// line, and the test for a cancellation (which is not an error).

import { explain } from './explain.js';

export const $ = (id) => document.getElementById(id);

export function showError(id, err) {
  const node = $(id);
  node.textContent = typeof err === 'string' ? err : explain(err);
  node.hidden = false;
}

export function clearError(id) {
  const node = $(id);
  node.textContent = '';
  node.hidden = true;
}

export function setStatus(id, text, ok = false) {
  const node = $(id);
  node.textContent = text;
  node.classList.toggle('ok', ok);
}

export function isAbort(err) {
  return err?.code === 'ABORTED' || err?.name === 'AbortError';
}
