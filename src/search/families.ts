/**
 * Whether a part belongs to a part family named in a query ("1.6A 20V mosfets"), judged from its leaf
 * category's name, or from the whole category path when the leaf names no family ("Others"), or from
 * its description when it has no category. The leaf decides because upper levels group unlike parts
 * ("TVS/Fuse/Board Level Protection" holds TVS diodes and fuses; "Optocoupler/LED/Digital Tube" both
 * optocouplers and LEDs). Used by agentic ranking: a query that names a family wants that family first.
 */
import type { PartRecord } from '../catalog/part.ts';
import { FAMILY_CATEGORY, GENERIC_FAMILIES, type Family } from '../vocabulary/families.ts';

/**
 * The families a match is judged on: the specific ones named ("zener diode" -> zener). A generic
 * family alone ("diode", "transistor", "amplifier", "regulator") orders nothing: an LED is a diode
 * too, and the words already score through BM25.
 */
export function familiesToMatch(families: readonly Family[]): Family[] {
  return [...new Set(families.filter((f) => !GENERIC_FAMILIES.has(f)))];
}

/** Words of category names (either catalogue's wording) that mark each family: families.json `category`. */
const PATTERNS = [...FAMILY_CATEGORY.values()];
/** Category slug -> the text families are judged on (the leaf name, or the whole path). */
const judgedText = new Map<string, string>();

function categoryText(c: NonNullable<PartRecord['category']>): string {
  let t = judgedText.get(c.slug);
  if (t === undefined) {
    const leaf = c.path[c.path.length - 1]?.name ?? c.name;
    t = PATTERNS.some((re) => re.test(leaf)) ? leaf : c.path.map((x) => x.name).join(' / ');
    if (judgedText.size >= 10_000) judgedText.clear();
    judgedText.set(c.slug, t);
  }
  return t;
}

/** True when the part is of any of the families (familiesToMatch's result); null when none is named. */
export function inFamily(families: readonly Family[], p: Pick<PartRecord, 'category' | 'description'>): boolean | null {
  if (families.length === 0) return null;
  const text = p.category ? categoryText(p.category) : p.description;
  return families.some((f) => FAMILY_CATEGORY.get(f)?.test(text) ?? false);
}
