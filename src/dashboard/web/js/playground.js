// The map playground: the live maps API (styles, tiles, a static map) with one of the organization's keys.
import { api } from './api.js';
import { $, el } from './dom.js';
import { copySecret } from './secrets.js';
import { state } from './state.js';

const WORLD_VIEW = { center: [0, 20], zoom: 1.5 };

/** Forgets the key values of the account that left. */
export function forgetKeyValues() {
  state.createdKeyValues.clear();
  $('#playground-key').value = '';
}

/** The value of the newest active key with the Maps scope created in this tab, or ''. */
function newestMapsKeyValue(keys) {
  const usable = keys.filter((key) => key.status === 'active' && key.scopes.includes('maps') && state.createdKeyValues.has(key.id));
  return usable.length ? state.createdKeyValues.get(usable.at(-1).id) : '';
}

/**
 * Fills in the newest usable key of the current key list (never a revoked one, nor one without Maps),
 * or asks for one. A key pasted from elsewhere is left as it is: the live API will judge it.
 */
export async function loadPlayground() {
  const { keys } = await api('GET', '/keys');
  const input = $('#playground-key');
  const createdHere = [...state.createdKeyValues.values()].includes(input.value);
  if (input.value === '' || createdHere) input.value = newestMapsKeyValue(keys);
  await useKeyInField();
}

function playgroundStatus(message, kind = 'info') {
  const status = $('#playground-status');
  status.textContent = message;
  status.dataset.kind = kind;
}

/** Fills the style menu from the live API with the key, keeping the chosen style. */
async function loadStyleMenu(key) {
  if (key === state.styleMenuKey) return;
  const select = $('#playground-style');
  const chosen = select.value;
  state.styleMenuKey = '';
  select.replaceChildren();
  const response = await fetch(`/api/v1/styles?key=${encodeURIComponent(key)}`);
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.message ?? `The maps API answered ${response.status}.`);
  select.replaceChildren(...body.styles.map((style) => el('option', { value: style.slug, selected: style.slug === chosen }, style.name)));
  state.styleMenuKey = key;
}

/** Fills the style menu with the key in the field; without a key that works there is no map (and without any key, a prompt for one). */
async function useKeyInField() {
  const key = $('#playground-key').value.trim();
  const refusal = key
    ? await loadStyleMenu(key).then(
        () => '',
        (e) => e.message,
      )
    : '';
  const usable = key !== '' && !refusal;
  $('#playground-no-key').hidden = key !== '';
  if (!usable) $('#playground-map').hidden = $('#playground-static').hidden = true;
  if (refusal) playgroundStatus(refusal, 'error');
  else if (!key || $('#playground-status').dataset.kind === 'error') playgroundStatus('');
  return usable;
}

/** Where the map opens: the centre and zoom of the dataset's TileJSON, else its bounds, else the whole world. */
async function datasetView(styleUrl) {
  try {
    const style = await (await fetch(styleUrl)).json();
    const source = Object.values(style.sources).find((s) => s.type === 'vector' && s.url);
    const tileJson = await (await fetch(source.url)).json();
    const [longitude, latitude, zoom] = tileJson.center ?? [];
    if (Number.isFinite(longitude) && Number.isFinite(latitude)) return { center: [longitude, latitude], zoom: zoom ?? 2 };
    if (tileJson.bounds?.length === 4) return { bounds: tileJson.bounds };
  } catch {
    // No TileJSON to go by (no dataset imported yet, say): the world.
  }
  return WORLD_VIEW;
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
  map.on('error', (event) => playgroundStatus(`Map error: ${event.error?.message ?? 'unknown'}`, 'error'));
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
  $('#playground-key').addEventListener('change', useKeyInField);
  $('#playground-form').addEventListener('submit', (event) => {
    event.preventDefault();
    showPlaygroundMap();
  });
}
