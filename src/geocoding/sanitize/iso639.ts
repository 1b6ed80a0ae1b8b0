/** ISO 639-3 codes of the ISO 639-1 languages most used in place names, for the `lang` echo of responses. */

// Pairs `639-1 639-3` (macrolanguage codes where ISO 639-3 has one, as Pelias reports them).
const PAIRS =
  'af afr,am amh,ar ara,az aze,be bel,bg bul,bn ben,bs bos,ca cat,cs ces,cy cym,da dan,de deu,el ell,en eng,' +
  'eo epo,es spa,et est,eu eus,fa fas,fi fin,fo fao,fr fra,fy fry,ga gle,gd gla,gl glg,gu guj,he heb,hi hin,' +
  'hr hrv,hu hun,hy hye,id ind,is isl,it ita,ja jpn,ka kat,kk kaz,km khm,kn kan,ko kor,ku kur,ky kir,la lat,' +
  'lb ltz,lo lao,lt lit,lv lav,mk mkd,ml mal,mn mon,mr mar,ms msa,mt mlt,my mya,nb nob,ne nep,nl nld,nn nno,' +
  'no nor,oc oci,pa pan,pl pol,ps pus,pt por,rm roh,ro ron,ru rus,si sin,sk slk,sl slv,sq sqi,sr srp,sv swe,' +
  'sw swa,ta tam,te tel,tg tgk,th tha,tk tuk,tl tgl,tr tur,uk ukr,ur urd,uz uzb,vi vie,yi yid,zh zho,zu zul';

const ISO6393 = new Map(PAIRS.split(',').map((pair) => pair.split(' ') as [string, string]));

/** The ISO 639-3 code of a language subtag: itself when it has three letters, else from the table. */
export function iso6393Of(subtag: string): string | undefined {
  return subtag.length === 3 ? subtag : ISO6393.get(subtag);
}
