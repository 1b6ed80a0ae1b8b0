// Secrets shown once (a new key's value, an invitation link) in their `.secret` cards, with a copy button.
import { $ } from './dom.js';

/** Shows a secret in its card; `id` is what it belongs to (a key, an invitation). */
export function showSecret(card, value, id) {
  card.dataset.for = id;
  $('.secret-value', card).textContent = value;
  $('.copy-status', card).textContent = '';
  card.hidden = false;
  $('.copy-secret', card).focus();
}

/** Forgets a secret so it is not left in the page. */
export function clearSecret(card) {
  $('.secret-value', card).textContent = '';
  card.hidden = true;
}

export function clearSecrets() {
  for (const card of document.querySelectorAll('.secret')) clearSecret(card);
}

/** Takes a revoked key's value or invitation's link off the page. */
export function clearSecretOf(id) {
  for (const card of document.querySelectorAll('.secret')) if (card.dataset.for === id) clearSecret(card);
}

export async function copySecret(card) {
  const value = $('.secret-value', card);
  const status = $('.copy-status', card);
  try {
    await navigator.clipboard.writeText(value.textContent);
    status.textContent = 'Copied to the clipboard.';
  } catch {
    const range = document.createRange();
    range.selectNodeContents(value);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    status.textContent = 'It is selected: press Ctrl+C (⌘C on a Mac) to copy it.';
  }
}

export function setUpSecrets() {
  for (const card of document.querySelectorAll('.secret')) {
    $('.copy-secret', card).addEventListener('click', () => copySecret(card));
    $('.dismiss-secret', card).addEventListener('click', () => clearSecret(card));
  }
}
