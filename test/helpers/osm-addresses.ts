// Issue 11: addresses of building outlines and venues in the shared extracts (Monaco, Heidelberg), each
// searched as `street number, city`, `number street, postcode city` and with a typo in the street. Taken
// from the OSM data: every one has addr:housenumber, addr:street and addr:city (Monaco: the country when absent).

/** A typo people make: two letters in the middle of the street's longest word swapped (none in words under 5 letters). */
export function withTypo(street: string): string {
  const words = street.split(' ');
  const longest = words.reduce((a, b) => (b.length > a.length ? b : a));
  if (longest.length < 5) return street;
  const i = Math.floor(longest.length / 2);
  const typo = longest.slice(0, i - 1) + longest[i] + longest[i - 1] + longest.slice(i + 1);
  return words.map((word) => (word === longest ? typo : word)).join(' ');
}

/** [OSM element, house number, street, postcode (may be empty), city, label point] */
export type AddressedElement = [element: string, housenumber: string, street: string, postcode: string, city: string, at: [number, number]];

export const ADDRESSED_ELEMENTS: AddressedElement[] = [
  ['node/267901435', '6', 'Quai Antoine 1er', '98000', 'Monaco', [7.42579, 43.73292]], // Stars n Bars
  ['node/897654574', '3', 'Avenue saint laurent', '', 'Monaco', [7.42785, 43.74331]], // Wine O Clock
  ['node/995175662', '28', 'Quai Jean Charrles Rey', '', 'Monaco', [7.4204, 43.72852]], // La Saliere
  ['node/1306037369', '2', 'rue des Orangers', '98000', 'Monaco', [7.42033, 43.73351]], // My Sushi
  ['node/1395006351', '20', 'Rue du Château', '06360', 'Èze', [7.36126, 43.72812]], // Jardin Exotique
  ['node/1639759014', '2', 'Rue de la Lujerneta', '', 'Monaco', [7.41639, 43.72984]], // Decathlon
  ['node/1661139827', '4bis', 'Rue de la Colle', '', 'Monaco', [7.41795, 43.73239]], // AMRR-AG2R
  ['node/1661166947', '4', 'Avenue des Papalins', '', 'Monaco', [7.4172, 43.72919]], // L'En-K
  ['node/1661205474', '24', 'Avenue de Fontvieille', '', 'Monaco', [7.41479, 43.72887]], // Aigue Marine
  ['node/1661205494', '7', 'Rue du Gabian', '98000', 'Monaco', [7.41488, 43.7295]], // Gildo Pastor Center
  ['node/1661221288', '4-6', 'Avenue Albert II', '', 'Monaco', [7.41606, 43.72952]], // Mecaplast
  ['node/1662764981', '6', 'Avenue des Papalins', '', 'Monaco', [7.4172, 43.72924]], // Le barbagiuan
  ['node/1662764987', '8', 'Avenue des Papalins', '', 'Monaco', [7.41718, 43.7291]], // Monaco Mutualité
  ['node/1662811579', '6', 'Rue Imberty', '', 'Monaco', [7.42031, 43.73369]], // Planet Pasta
  ['node/1704462960', '3', 'Place du Campanin', '98000', 'Monaco', [7.41791, 43.72797]], // Bureau de Monaco Fontvieille
  ['node/1784900810', '5b', 'Boulevard Albert 1er', '98000', 'Monaco', [7.42149, 43.73344]], // BNP-Paribas Monaco La Condamine
  ['node/1788512138', '5', 'Rue Colonel Bellando de Castro', '98000', 'Monaco', [7.42223, 43.73021]], // Palais de Justice
  ['node/1866465411', '5', 'Place du Campanin', '98000', 'Monaco', [7.41778, 43.72793]], // Caserne de Fontvieille
  ['node/1876837914', '63', 'Boulevard du Jardin Exotique', '', 'Monaco', [7.41536, 43.73502]], // Parking du Jardin Exotique
  ['node/2838235236', '1', 'Rue du Ténao', '98000', 'Monaco', [7.43412, 43.74932]], // Ambassade de France à Monaco
  ['node/2838250945', '17', "Avenue de l'Annonciade", '98000', 'Monaco', [7.43105, 43.7483]], // Ambassade d'Italie à Monaco
  ['node/3087622131', '10', 'Avenue Princesse Grace', '98000', 'Monaco', [7.43172, 43.74338]], // Café Llorca
  ['node/3258887960', '395', 'Boulevard du Maréchal Leclerc', '', 'Monaco', [7.35933, 43.73162]], // Brigade de proximité d'Èze
  ['node/3297635906', '12', 'Chemin de la Turbie', '98020', 'Monaco', [7.41755, 43.73745]], // Bureau de Monaco Herculis
  ['node/3365391452', '1', 'rue Louis Notari', '98000', 'Monaco', [7.42058, 43.73433]], // U Picin Tocu
  ['node/3479297745', '2', 'Avenue Prince Albert Ier de Monaco', '', 'Monaco', [7.40092, 43.74617]], // La Régence
  ['node/3479297752', '3', 'Place Théodore de Banville', '', 'Monaco', [7.40061, 43.74552]], // La Cave Turbiasque
  ['node/3543154961', '1312', 'Avenue Raymond Poincaré', '', 'Monaco', [7.37408, 43.7184]], // Cap Estel
  ['node/3545240802', '9', 'Route de Menton', '', 'Monaco', [7.40155, 43.74694]], // La Pignata
  ['node/3548309202', '2', 'Avenue Albert II', '98000', 'Monaco', [7.4164, 43.72938]], // International University of Monaco
  ['node/3559664499', '1', 'Avenue Pierre Weck', '06320', "Cap-d'Ail", [7.39608, 43.72205]], // Hôtel de Monaco
  ['node/3559713712', '126', 'Avenue du 3 Septembre', '', 'Monaco', [7.39564, 43.7229]], // Miramar
  ['node/3559713723', '6', 'Allée des Orangers', '', 'Monaco', [7.39555, 43.72256]], // Normandy
  ['node/3574643941', '36', 'Pool Road', '', 'Monaco', [7.42228, 43.73352]], // Explorers Pub
  ['node/3665709453', '7-9', 'Rue Terrazzani', '', 'Monaco', [7.42018, 43.73258]], // Solis Bio
  ['node/3943918440', '30', 'Rue Principale', '06360', 'Èze', [7.3616, 43.72766]], // Floriane Maels Galerie
  ['way/62665115', '244', 'Avenue de Verdun', '06360', 'Èze', [7.36318, 43.7305]], // Eza Vista
  ['way/94399646', '20', 'Avenue Crovetto-Frères', '98000', 'Monaco', [7.41636, 43.73307]], // St-Martin
  ['way/94400104', '11', 'Avenue de Roqueville', '', 'Monaco', [7.42132, 43.73996]], // Église des Franciscains
  ['way/94452665', '22', 'Avenue de Grande-Bretagne', '98000', 'Monte-Carlo', [7.42914, 43.74327]], // Saint Paul's Anglican Church
  ['relation/1484190', '1', 'Place de la Visitation', '98000', 'Monaco', [7.42524, 43.73108]], // Lycée Albert 1er
  ['way/112681614', '1', 'Quai Antoine 1er', '98000', 'Monaco', [7.42319, 43.73256]], // La Rascasse
  ['way/137783020', '30', 'Route du Val de Gorbio', '06500', 'Menton', [7.48168, 43.76828]],
  ['way/138590234', '59', 'Avenue des Palmiers', '', 'roquebrune-Cap-Martin', [7.48191, 43.75943]],
  ['way/157455610', '62', 'Boulevard du Jardin Exotique', '', 'Monaco', [7.41424, 43.73131]], // Jardin Exotique
  ['way/161885377', '4', 'Quai Antoine 1er', '98000', 'Monaco', [7.42559, 43.73277]], // Salle d'Exposition
  ['way/334846659', '54', "Boulevard d'Italie", '98000', 'Monaco', [7.43478, 43.7488]], // Église des Carmes
  ['node/270306133', '1', 'Kurfürsten-Anlage', '69115', 'Heidelberg', [8.69182, 49.40648]], // Crowne Plaza
  ['node/303316187', '15', 'Poststraße', '69115', 'Heidelberg', [8.68613, 49.40731]], // Stadtbücherei
  ['node/364059072', '1', 'Bismarckstraße', '69115', 'Heidelberg', [8.69201, 49.40969]], // Am Bismarckplatz
  ['node/567441919', '26', 'Römerstraße', '69115', 'Heidelberg', [8.68458, 49.40409]], // SameSame
  ['node/1239107711', '15a', 'Römerstraße', '69115', 'Heidelberg', [8.68468, 49.40478]], // Indian Curry
  ['node/1612834283', '24-26', 'Römerstraße', '69115', 'Heidelberg', [8.68456, 49.40427]], // DaBaggio
  ['node/1743456708', '8', 'Kornmarkt', '69117', 'Heidelberg', [8.71189, 49.41197]], // Buchladen - artes liberales
  ['node/2820735909', '21', 'Schillerstraße', '69115', 'Heidelberg', [8.68682, 49.4007]], // Freitagskind
  ['node/3338852462', '17', 'José-Rizal-Straße', '', 'Wilhelmsfeld', [8.75882, 49.47027]], // José Rizal
  ['node/3885806261', '47', 'Berliner Straße', '69120', 'Heidelberg', [8.67578, 49.41906]], // Krebsinformationsdienst
  ['way/5182648', '3', 'Tiergartenstraße', '69120', 'Heidelberg', [8.6617, 49.41485]], // Zoo Heidelberg
  ['way/24972520', '16', 'Karolingerweg', '69123', 'Heidelberg', [8.64523, 49.41975]], // Städtische Kindertagesstätte Karolinger Weg
  ['way/26007318', '134B', 'Im Neuenheimer Feld', '', 'Heidelberg', [8.66745, 49.41268]], // Internationales Max Kade Haus
  ['way/26007333', '135', 'Im Neuenheimer Feld', '', 'Heidelberg', [8.66843, 49.41266]], // Marsilius Arkaden INF135
  ['way/29114721', '1-5', 'Roonstraße', '69120', 'Heidelberg', [8.68903, 49.42006]], // St. Raphael-Schulen
  ['way/36208791', '4', 'Voßstraße', '69115', 'Heidelberg', [8.68569, 49.40964]], // Klinik für Allgemeine Psychiatrie
  ['way/50322829', '157', 'Talstraße', '69198', 'Schriesheim', [8.67367, 49.47786]], // Besucherbergwerk Grube Anna-Elisabeth
  ['way/97287580', '23', 'Mannheimer Straße', '69115', 'Heidelberg', [8.65695, 49.41125]], // Neckarhalle Wieblingen
  ['way/124283434', '34', 'Schützenhausstraße', '69151', 'Neckargemünd', [8.7852, 49.39203]], // Staatliche Gehörlosenschule
  ['way/135989911', '1', 'Tinqueux-Allee', '', 'Leimen', [8.69252, 49.34168]], // Otto-Hoog-Stadion
  ['relation/1991213', '5a', 'Königstuhl', '69117', 'Heidelberg', [8.72957, 49.40195]], // Märchenparadies Königstuhl
  ['way/158368925', '62', 'Kurfürsten-Anlage', '69115', 'Heidelberg', [8.67536, 49.40569]], // BG RCI
  ['way/25205558', '561', 'Im Neuenheimer Feld', '69120', 'Heidelberg', [8.66919, 49.41996]],
  ['way/87606644', '19', 'Bürgermeister-Müßig-Straße', '69151', 'Neckargemünd', [8.79646, 49.39343]],
  ['way/157738612', '1', 'Hauptstraße', '69151', 'Neckargemünd', [8.8002, 49.39221]],
  ['way/183755905', '11', 'Eppelheimer Straße', '69115', 'Heidelberg', [8.66679, 49.40485]],
  ['way/308522593', '8', 'Finkenweg', '69151', 'Neckargemünd', [8.83888, 49.39507]],
  ['way/415302085', '1', 'Kirchgasse', '69198', 'Schriesheim', [8.73854, 49.4864]],
];
