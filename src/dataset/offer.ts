// The dataset server moved to src/cluster/dataset-offer.ts; this path stays only for src/cli/worker.ts
// (another branch works on src/cli/): once it imports '../cluster/dataset-offer.js', delete this file.
export { startDatasetOffers, type OfferSettings } from '../cluster/dataset-offer.js';
