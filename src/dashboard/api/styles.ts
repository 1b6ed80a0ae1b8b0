/**
 * The map styles' slugs and names (public: the same for everyone, and the maps API's own 404 lists
 * them), so the playground can offer them before a key is chosen. The styles themselves, their
 * tiles, fonts and icons still need a key with the Maps scope from `/api/v1`.
 */
import { LABEL_LANGUAGES, STYLES } from '../../../core/maps/style-catalog.js';
import { json } from '../../http/reply.js';
import type { Router } from '../../http/router.js';
import { publicRoutes } from './routes.js';

const stylesView = () => ({ styles: STYLES.map(({ slug, name }) => ({ slug, name })), languages: LABEL_LANGUAGES });

export function registerStyles(router: Router): void {
  publicRoutes(router, {
    'GET /styles': async () => json(200, stylesView()),
  });
}
