/** `boundary.country`: an ISO 3166-1 alpha-2 or alpha-3 code of an assigned country, any case. */
import { countryByCode, type Country } from '../../../core/geocoding/countries.js';
import { messages } from './messages.js';
import { clean, rejected, type Sanitizer } from '../../http/params/sanitized.js';

export const sanitizeBoundaryCountry: Sanitizer<Country | undefined> = (query) => {
  const raw = query.get('boundary.country');
  if (raw === null) return clean(undefined);
  const country = countryByCode(raw.trim());
  return country === undefined ? rejected(undefined, messages.badCountry('boundary.country', raw)) : clean(country);
};
