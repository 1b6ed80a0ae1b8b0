// The map playground: the live maps API (styles, tiles, a static map) with one of the organization's keys.
import { api } from './api.js';
import { $, el } from './dom.js';
import { copySecret } from './secrets.js';
import { isPast } from './format.js';
import { state } from './state.js';

const WORLD_VIEW = { center: [0, 20], zoom: 1.5 };

/** The picker's choice of pasting a key that is not in the list. */
const PASTE = 'paste';

/** Forgets the key values of the account that left, and its choice of key. */
export function forgetKeyValues() {
  state.createdKeyValues.clear();
  state.playgroundPick = null;
  $('#playground-key').value = '';
}

/** The keys the playground can use: active, with the Maps scope, not expired; newest first (the list comes oldest first). */
const mapsKeys = (keys) => keys.filter((key) => key.status === 'active' && key.scopes.includes('maps') && !isPast(key.expiresAt)).reverse();

/**
 * Lists the styles (they need no key) and the member's Maps keys in the picker, choosing the key picked
 * before if it is still listed, else the newest one whose value this tab knows, else the newest one.
 * A key pasted from elsewhere is left as it is: the live API will judge it.
 */
export async function loadPlayground() {
  const [{ keys }] = await Promise.all([api('GET', '/keys'), fillStyleMenu()]);
  state.playgroundKeys = mapsKeys(keys);
  fillKeyPicker();
  applyKeyChoice(false);
  await useKeyInField();
}

/** The style menu, from the dashboard's public list of the styles (once: they change only with the server). */
async function fillStyleMenu() {
  const select = $('#playground-style');
  if (select.options.length > 0) return;
  const { styles } = await api('GET', '/styles');
  select.replaceChildren(...styles.map((style) => el('option', { value: style.slug }, style.name)));
}

function fillKeyPicker() {
  const keys = state.playgroundKeys;
  const picker = $('#playground-key-choice');
  picker.replaceChildren(
    ...keys.map((key) => el('option', { value: key.id }, `${key.name} (${key.hint})`)),
    el('option', { value: PASTE }, 'Another key: paste its value'),
  );
  $('#playground-key-choice-field').hidden = keys.length === 0;
  const pick = state.playgroundPick;
  const listed = pick === PASTE || keys.some((key) => key.id === pick);
  picker.value = listed ? pick : ((keys.find((key) => state.createdKeyValues.has(key.id)) ?? keys[0])?.id ?? PASTE);
}

const chosenKey = () => state.playgroundKeys.find((key) => key.id === $('#playground-key-choice').value) ?? null;

/**
 * Puts the chosen key's value in the key field when this tab knows it (the field is then hidden);
 * otherwise the field asks for the value. A value of another key created here never stays in it, nor,
 * after a choice made `byHand`, a value pasted for the key chosen before.
 */
function applyKeyChoice(byHand) {
  const input = $('#playground-key');
  const chosen = chosenKey();
  const known = chosen ? state.createdKeyValues.get(chosen.id) : undefined;
  const createdHere = [...state.createdKeyValues.values()].includes(input.value);
  if (known) input.value = known;
  else if (byHand || createdHere) input.value = '';
  $('#playground-key-field').hidden = known !== undefined;
  $('#playground-key-label').textContent =
    state.playgroundKeys.length === 0 ? 'API key' : chosen ? `Value of “${chosen.name}”` : 'Key value';
}

/** What the notice says when there is no key to show a map with, in each case. */
function noKeyMessage() {
  const chosen = chosenKey();
  if (state.playgroundKeys.length === 0)
    return 'The playground needs an API key with the Maps scope, and none of the keys listed for you on the API Keys page is an active Maps key. Create one, or paste the value of a Maps key you have into the API key field above.';
  if (chosen)
    return `Waymark shows a key's value only once, when the key is created or rolled, and this tab has not seen the value of “${chosen.name}”. Paste it into the field above if you saved it, or create a new key with the Maps scope: this tab remembers the values of the keys created in it until it is closed.`;
  return 'Paste the value of a key with the Maps scope into the field above, or create a new one.';
}

function playgroundStatus(message, kind = 'info') {
  const status = $('#playground-status');
  status.textContent = message;
  status.dataset.kind = kind;
}

/** Asks the live maps API whether it takes the key (its refusal says why not), once per key. */
async function checkKey(key) {
  if (key === state.acceptedKey) return;
  const response = await fetch(`/api/v1/styles?key=${encodeURIComponent(key)}`);
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.message ?? `The maps API answered ${response.status}.`);
  state.acceptedKey = key;
}

/** Checks the key in the field; without a key that works there is no map (and without any key, the notice says what to do). */
async function useKeyInField() {
  const key = $('#playground-key').value.trim();
  const refusal = key
    ? await checkKey(key).then(
        () => '',
        (e) => e.message,
      )
    : '';
  const usable = key !== '' && !refusal;
  $('#playground-no-key').hidden = key !== '';
  if (!key) $('#playground-no-key-text').textContent = noKeyMessage();
  if (!usable) $('#playground-map').hidden = $('#playground-static').hidden = true;
  if (refusal) playgroundStatus(refusal, 'error');
  else if (!key || $('#playground-status').dataset.kind === 'error') playgroundStatus('');
  return usable;
}

/**
 * Where the map opens: the style's `center` and `zoom`, the dataset's first view (inside the
 * imported extracts' box, so no coarse world coastline shows), else the whole world.
 */
async function datasetView(styleUrl) {
  try {
    const { center, zoom } = await (await fetch(styleUrl)).json();
    if (Array.isArray(center) && center.every(Number.isFinite) && Number.isFinite(zoom)) return { center, zoom };
  } catch {
    // No style to go by (no dataset imported yet, say): the world.
  }
  return WORLD_VIEW;
}

/** The style's raster-dem source, which hillshade and MapLibre's 3D terrain read. */
const TERRAIN_SOURCE = 'terrain';

/** 3D terrain (`map.setTerrain`) from the style's terrain source, when it has one and the box is ticked; otherwise the note says why not. */
function applyTerrain() {
  const map = state.map;
  const box = $('#playground-terrain');
  const available = Boolean(map?.getSource(TERRAIN_SOURCE));
  box.disabled = !available;
  if (map) map.setTerrain(available && box.checked ? { source: TERRAIN_SOURCE, exaggeration: 1.5 } : null);
  if (available || !map) showTerrainNote('');
  else void explainNoTerrain();
}

function showTerrainNote(text) {
  const note = $('#playground-terrain-note');
  note.textContent = text;
  note.hidden = text === '';
}

/**
 * Why the style has no terrain source, in words (a disabled box's hover title shows on no phone):
 * the dataset has no elevation (the terrain TileJSON's refusal says so, and what the operator does),
 * there is no dataset yet (the map's status says why), or the style draws none.
 */
async function explainNoTerrain() {
  const key = $('#playground-key').value.trim();
  const response = await fetch(`/api/v1/tiles/terrain.json?key=${encodeURIComponent(key)}`).catch(() => null);
  if (response?.ok) return showTerrainNote('No 3D terrain in this style: choose Natural or Outdoors.');
  const reason = (await response?.json().catch(() => null))?.message ?? '';
  showTerrainNote(/no elevation data/.test(reason) ? `No 3D terrain: ${reason}.` : 'No 3D terrain: there is no map data yet.');
}

/** A message without any key value (MapLibre's errors name the URL they fetched, `?key=` included). */
const withoutKey = (message) => message.replace(/wmk_[A-Za-z0-9]+/g, 'wmk_…').replace(/([?&]key=)[^&\s)"']+/g, '$1…');

/** The message of the API's error body that MapLibre kept (an AJAXError's `body`, a Blob), or undefined. */
async function apiReason(error) {
  if (!(error?.body instanceof Blob)) return undefined;
  try {
    const { message } = JSON.parse(await error.body.text());
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A map error in words: an answer of the API by the reason its error body gives (no dataset yet, the
 * first import running…), anything else by its message; never with the key.
 */
async function showMapError(error) {
  const reason = await apiReason(error);
  const text = reason === undefined ? `Map error: ${error?.message ?? 'unknown'}` : `Map error (${error.status}): ${reason}`;
  playgroundStatus(withoutKey(text), 'error');
}

async function showPlaygroundMap() {
  if (!(await useKeyInField())) return;
  const key = $('#playground-key').value.trim();
  // Loaded on first use only: MapLibre is large, and most visits never open the playground.
  const maplibre = await import('/dashboard/vendor/maplibre-gl/maplibre-gl.mjs');
  const lang = $('#playground-lang').value;
  const styleUrl = `${location.origin}/api/v1/styles/${encodeURIComponent($('#playground-style').value)}/style.json?key=${encodeURIComponent(key)}${lang ? `&lang=${lang}` : ''}`;
  $('#playground-map').hidden = false;
  $('#playground-static').hidden = false;
  // The same style again would load nothing (and bring no new `idle` event).
  if (styleUrl === state.shownStyleUrl) return;
  state.shownStyleUrl = styleUrl;
  playgroundStatus('Loading the map…');
  if (state.map) {
    state.map.setStyle(styleUrl);
    return;
  }
  // A position in the URL (`&map=zoom/lat/lon`) wins over the dataset's view.
  const map = new maplibre.Map({ container: 'playground-map', style: styleUrl, hash: 'map', ...(await datasetView(styleUrl)) });
  state.map = map;
  map.addControl(new maplibre.NavigationControl());
  // Each style (a new one from setStyle too) says whether terrain can be shown.
  map.on('style.load', applyTerrain);
  map.on('error', (event) => void showMapError(event.error));
  map.on('idle', () => {
    if ($('#playground-status').dataset.kind !== 'error')
      playgroundStatus(
        `Showing ${$('#playground-style').selectedOptions[0]?.textContent ?? ''} at zoom ${map.getZoom().toFixed(1)}.`,
        'ready',
      );
  });
}

/** The largest static map side (the API's limit). */
const STATIC_MAX_SIDE = 1280;

/** The `/staticmap` URL of the map's current view: its centre, zoom and size (up to the API's limit), style and labels. */
function staticMapUrl() {
  const key = $('#playground-key').value.trim();
  const { lng, lat } = state.map.getCenter();
  const { clientWidth, clientHeight } = state.map.getContainer();
  const size = `${Math.min(clientWidth, STATIC_MAX_SIDE)}x${Math.min(clientHeight, STATIC_MAX_SIDE)}`;
  const lang = $('#playground-lang').value;
  const query = new URLSearchParams({
    key,
    style: $('#playground-style').value,
    center: `${lat.toFixed(5)},${lng.toFixed(5)}`,
    zoom: state.map.getZoom().toFixed(2),
    size,
  });
  if (devicePixelRatio > 1) query.set('scale', '2');
  if (lang) query.set('lang', lang);
  return `${location.origin}/api/v1/staticmap?${query}`;
}

/** Shows the static map of the current view and its URL; an API refusal is shown as the status. */
async function showStaticMap() {
  const card = $('#playground-static');
  const url = staticMapUrl();
  const response = await fetch(url);
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    playgroundStatus(body.message ?? `The static map API answered ${response.status}.`, 'error');
    return;
  }
  const image = $('#playground-static-image');
  if (image.src.startsWith('blob:')) URL.revokeObjectURL(image.src);
  image.src = URL.createObjectURL(await response.blob());
  image.hidden = false;
  $('.secret-value', card).textContent = url;
  $('.copy-status', card).textContent = '';
  $('.playground-static-url', card).hidden = false;
}

export function setUpPlayground() {
  const staticCard = $('#playground-static');
  $('#playground-static-make').addEventListener('click', () => state.map && showStaticMap());
  $('.copy-secret', staticCard).addEventListener('click', () => copySecret(staticCard));
  $('#playground-key').addEventListener('change', () => {
    state.playgroundPick = $('#playground-key-choice').value;
    useKeyInField();
  });
  // A key whose value this tab knows shows its map at once; another asks for its value.
  $('#playground-key-choice').addEventListener('change', () => {
    state.playgroundPick = $('#playground-key-choice').value;
    applyKeyChoice(true);
    if ($('#playground-key').value) showPlaygroundMap();
    else useKeyInField();
  });
  $('#playground-terrain').addEventListener('change', () => {
    applyTerrain();
    // Terrain is seen from the side: tilt the map when it is turned on.
    if (state.map && $('#playground-terrain').checked) state.map.easeTo({ pitch: 60 });
  });
  $('#playground-form').addEventListener('submit', (event) => {
    event.preventDefault();
    showPlaygroundMap();
  });
}
