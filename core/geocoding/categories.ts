/**
 * Pelias' category taxonomy of OSM places (pelias/openstreetmap `config/category_map.js`): the
 * tags of a venue give its categories, cumulatively; `*` matches any value of a key. Addresses,
 * streets and admin areas have none. The `categories` parameter filters by these values.
 */

type CategoryMap = Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;

const AIR = ['transport', 'transport:air'];
const LEARN_AND_PLAY = ['education', 'entertainment'];
const SHOP_FOOD = ['food', 'retail'];
const BUS = ['transport', 'transport:public', 'transport:bus'];
const STATION = ['transport', 'transport:station'];
const STAY = ['accommodation'];

/** `key → value → categories` with a shared list for many values. */
const each = (values: string, categories: readonly string[]) => Object.fromEntries(values.split(' ').map((value) => [value, categories]));

/** Cuisines with a menu focus (`food:<value>`) and regional cuisines (`food:cuisine:<value>`). */
const MENU =
  'bagel barbecue bougatsa burger burrito cake casserole chicken coffee_shop crepe couscous curry dessert donut empanada fish ' +
  'fish_and_chips fried_food friture gyro ice_cream kebab mediterranean noodle pancake pasta pie pizza regional sandwich sausage ' +
  'savory_pancakes seafood sub sushi tapas vegan vegetarian wings';
const REGIONAL =
  'african american arab argentinian asian australian baiana balkan basque bavarian belarusian brazilian cantonese capixaba ' +
  'caribbean chinese croatian czech danish french gaucho german greek hunan hungarian indian international iranian italian ' +
  'japanese korean kyo_ryouri latin_american lebanese malagasy mexican mineira okinawa_ryori pakistani peruvian polish ' +
  'portuguese rhenish russian shandong sichuan spanish thai turkish vietnamese westphalian';
const byValue = (values: string, prefix: string) => Object.fromEntries(values.split(' ').map((value) => [value, [`${prefix}${value}`]]));

export const CATEGORY_MAP: CategoryMap = {
  aerialway: { '*': ['transport'] },
  aeroway: { '*': AIR, aerodrome: [...AIR, 'transport:air:aerodrome'], international: [...AIR, 'transport:air:airport'] },
  amenity: {
    ...each('bbq dojo gym', ['recreation']),
    place_of_worship: ['religion'],
    ...each('arts_centre community_centre social_centre library planetarium theatre', LEARN_AND_PLAY),
    ...each('college kindergarten school university', ['education']),
    ...each('bar casino gambling nightclub pub', ['nightlife']),
    biergarten: ['nightlife', 'food'],
    cinema: ['entertainment', 'nightlife'],
    ...each('courthouse embassy fire_station police post_office register_office townhall', ['government']),
    ranger_station: ['government', 'recreation'],
    coworking_space: ['professional'],
    atm: ['finance'],
    ...each('bank bureau_de_change', ['finance', 'professional']),
    ...each('clinic dentist doctors hospital nursing_home pharmacy social_facility', ['health']),
    veterinary: ['professional'],
    ...each('cafe fast_food food_court ice_cream marketplace', SHOP_FOOD),
    restaurant: [...SHOP_FOOD, 'nightlife'],
    bus_station: BUS,
    taxi: ['transport', 'transport:taxi'],
    ...each('car_rental charging_station fuel', ['transport', 'professional']),
    car_wash: ['professional'],
    ferry_terminal: ['transport', 'transport:sea'],
  },
  building: {
    hotel: STAY,
    commercial: ['professional'],
    retail: ['retail'],
    ...each('chapel church mosque temple synagogue shrine', ['religion']),
    ...each('civic public', ['government']),
    hospital: ['health'],
    ...each('school university', ['education']),
    stadium: ['entertainment'],
    farm: ['industry', 'industry:agriculture'],
    ...each('train_station transportation', STATION),
  },
  cuisine: {
    '*': ['food'],
    ...byValue(MENU, 'food:'),
    doughnut: ['food:donut'],
    steak_house: ['food:steak'],
    ...byValue(REGIONAL, 'food:cuisine:'),
  },
  craft: { '*': ['professional'] },
  emergency: { ambulance_station: ['health', 'government'] },
  historic: { ...each('archaeological_site monument', ['education']) },
  leisure: {
    ...each('adult_gaming_centre dance', ['nightlife']),
    ...each('amusement_arcade bandstand ice_rink miniature_golf stadium water_park', ['entertainment']),
    beach_resort: ['entertainment', 'recreation'],
    ...each('dog_park fishing garden nature_reserve park playground swimming_pool track', ['recreation']),
    ...each('golf_course pitch', ['recreation', 'entertainment']),
    sports_centre: ['recreation', 'education', 'entertainment'],
    summer_camp: ['recreation', 'education'],
    hackerspace: LEARN_AND_PLAY,
  },
  military: { '*': ['government:military', 'government'] },
  natural: { ...each('wood glacier beach', ['natural', 'recreation']), water: ['natural', 'natural:water', 'recreation'] },
  office: { '*': ['professional'] },
  public_transport: { '*': ['transport', 'transport:public'], station: STATION },
  railway: {
    ...each('light_rail subway tram', ['transport', 'transport:rail']),
    station: ['transport', 'transport:rail', 'transport:station'],
  },
  shop: {
    '*': ['retail'],
    ...each('bakery butcher cheese chocolate coffee deli greengrocer seafood supermarket', ['food']),
    ...each('tailor copyshop dry_cleaning', ['professional']),
    ...each('chemist medical_supply optician', ['health']),
  },
  sport: {
    '*': ['recreation'],
    ...each(
      'american_football australian_football badminton baseball basketball beachvolleyball billiards canadian_football chess ' +
        'cricket dog_racing field_hockey gaelic_games horse_racing ice_hockey karting rc_car rugby_league rugby_union',
      ['entertainment'],
    ),
    safety_training: ['education'],
  },
  tourism: {
    ...each('hotel motel alpine_hut apartment guest_house chalet caravan_site camp_site wilderness_hut', STAY),
    information: ['government'],
    ...each('attraction theme_park', ['entertainment']),
    viewpoint: ['recreation'],
    ...each('museum gallery zoo', LEARN_AND_PLAY),
  },
};

/** Every category of the taxonomy, sorted: the values `categories` accepts. */
export const CATEGORIES: readonly string[] = [
  ...new Set(Object.values(CATEGORY_MAP).flatMap((values) => Object.values(values).flat())),
].sort();

/** The categories a place's tags give, in taxonomy order of first appearance; undefined when none. */
export function categoriesOf(tags: Readonly<Record<string, string | undefined>>): string[] | undefined {
  const categories = new Set<string>();
  for (const [key, values] of Object.entries(CATEGORY_MAP)) {
    const value = tags[key];
    if (value === undefined) continue;
    const own = value !== '*' && Object.hasOwn(values, value) ? values[value]! : [];
    for (const category of [...(values['*'] ?? []), ...own]) categories.add(category);
  }
  return categories.size > 0 ? [...categories] : undefined;
}
