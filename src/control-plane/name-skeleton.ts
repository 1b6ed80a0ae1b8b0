/**
 * UTS #39's skeleton of a name (section 4): two names look alike when their skeletons are equal —
 * `ACME` and `АСМЕ` (Cyrillic), `acme` and `acrne`, `I` and `l`. An organization whose name's
 * skeleton equals an existing organization's is refused, as a look-alike. The confusables data is
 * Unicode's confusables.txt, as the `unhomoglyph` package carries it.
 */
import unhomoglyph from 'unhomoglyph';

export const nameSkeleton = (name: string): string => unhomoglyph(name.normalize('NFD')).normalize('NFD');
