// What the page says back: the banner, errors in forms, and the confirmation dialog before what cannot be undone.
import { $ } from './dom.js';
import { state } from './state.js';

/** Dispatched on `window` when a call finds the session gone; auth.js then shows the sign-in form. */
export const SESSION_ENDED = 'waymark:session-ended';

/** Whether `error` is a 401 while signed in (the session expired or was ended elsewhere); if so, says so to the page. */
export function endsSession(error) {
  if (error.status !== 401 || !state.session) return false;
  dispatchEvent(new Event(SESSION_ENDED));
  return true;
}

/** Shows a message in the page banner; errors stay until the next message. */
export function showBanner(message, kind = 'info') {
  const banner = $('#banner');
  banner.textContent = message;
  banner.className = `banner ${kind}`;
  banner.hidden = false;
}

export function hideBanner() {
  $('#banner').hidden = true;
}

/** After a successful action no earlier error stays on screen: neither in a form nor in the banner. */
export function clearErrors() {
  for (const error of document.querySelectorAll('.form-error')) error.textContent = '';
  if ($('#banner').classList.contains('error')) hideBanner();
}

/** Wires a form: on submit, runs `action(form)` with the form's button disabled, and shows any API error inside the form. */
export function onSubmit(form, action) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = $('button[type="submit"]', form);
    const error = $('.form-error', form);
    error.textContent = '';
    button.disabled = true;
    try {
      await action(form);
      clearErrors();
    } catch (e) {
      if (!endsSession(e)) error.textContent = e.message;
    } finally {
      button.disabled = false;
    }
  });
}

/** Runs a view action, reporting API errors in the banner. */
export async function guarded(action) {
  try {
    await action();
    clearErrors();
  } catch (e) {
    if (!endsSession(e)) showBanner(e.message, 'error');
  }
}

/**
 * Asks, in the confirmation dialog, before an action that cannot be undone (`tone` 'danger', its red
 * button) or one that changes what the organization pays or may use ('primary'). `message` is text and elements.
 */
export function confirmDanger({ title, message, confirmLabel, tone = 'danger' }, action) {
  state.confirmedAction = action;
  $('#confirm-title').textContent = title;
  $('#confirm-message').replaceChildren(...message);
  $('#confirm-button').textContent = confirmLabel;
  $('#confirm-button').className = `button ${tone}`;
  const dialog = $('#confirm-dialog');
  dialog.returnValue = '';
  dialog.showModal();
  $('button[value="cancel"]', dialog).focus();
}

export function setUpConfirm() {
  $('#confirm-dialog').addEventListener('close', () => {
    const action = state.confirmedAction;
    state.confirmedAction = null;
    if (action && $('#confirm-dialog').returnValue === 'confirm') guarded(action);
  });
}
