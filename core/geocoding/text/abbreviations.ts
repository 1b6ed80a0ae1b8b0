/**
 * Common street-type and title abbreviations, each with the words it may stand for. Applied to
 * query tokens only (the index holds names as written): "St" matches "street", "saint" and "sankt".
 */
// A Map, not an object: a token such as "constructor" must not find Object.prototype's members.
const ABBREVIATIONS = new Map<string, readonly string[]>(
  Object.entries({
    st: ['street', 'saint', 'sankt', 'strasse'],
    str: ['strasse', 'street'],
    ste: ['sainte'],
    av: ['avenue', 'avinguda', 'avenida'],
    avda: ['avenida', 'avinguda'],
    ave: ['avenue'],
    bd: ['boulevard'],
    bld: ['boulevard'],
    blvd: ['boulevard'],
    rd: ['road'],
    dr: ['drive', 'doktor'],
    ln: ['lane'],
    ct: ['court'],
    pl: ['place', 'platz', 'plaza'],
    sq: ['square'],
    hwy: ['highway'],
    pkwy: ['parkway'],
    mt: ['mount', 'mont'],
    ft: ['fort'],
    n: ['north', 'nord'],
    s: ['south', 'sud'],
    e: ['east', 'est'],
    w: ['west'],
  }),
);

/** The words an abbreviation token stands for; empty when it is not one. */
export function expansionsOf(token: string): readonly string[] {
  return ABBREVIATIONS.get(token) ?? [];
}
