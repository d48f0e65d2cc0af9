/**
 * Part families as data (vocabulary/families.json): the families a query can name ("hints"), the words
 * that name them, which of those words name a narrower kind, the category names that mark a part as
 * one of them, and what a quantity means in a family's context (roles.json ids).
 *
 * A query word naming a family sets the context for its quantities ("30V mosfet": drain-source voltage);
 * agentic ranking puts parts of a named family first (src/search/families.ts). Code that names a family
 * writes `family('ldo')`, which fails at start-up when families.json lacks it.
 */
import { SI_UNITS, type SiUnit } from '../catalog/units.ts';
import { loadVocabularyFile, VocabularyError } from './load.ts';
import { unknownRole, type RoleId } from './roles.ts';

/** A family id of families.json ("resistor", "ldo", "op amp", "ferrite bead"...). */
export type Family = string;

interface FamilyEntry {
  id: string;
  generic?: boolean;
  words: string[];
  subtypes?: string[];
  category: string;
  bareUnit?: string;
  roles?: Record<string, string>;
  rolesBySize?: Record<string, [number | null, string][]>;
  pairedRoles?: Record<string, [string, string]>;
  note?: string;
}

type ByUnit<T> = Readonly<Partial<Record<SiUnit, T>>>;

const SI: ReadonlySet<string> = new Set(SI_UNITS);

function build(entries: readonly FamilyEntry[]) {
  const problems: string[] = [];
  const ids = new Set<string>();
  const words = new Map<string, Family>();
  const subtypes = new Set<string>();
  const generic = new Set<Family>();
  const category = new Map<Family, RegExp>();
  const bareUnit: Partial<Record<Family, SiUnit>> = {};
  const contextRoles: Partial<Record<Family, ByUnit<RoleId>>> = {};
  const magnitudeRoles: Partial<Record<Family, ByUnit<readonly (readonly [number, RoleId])[]>>> = {};
  const pairedRoles: Partial<Record<Family, ByUnit<readonly [RoleId, RoleId]>>> = {};
  const unit = (u: string, where: string) => {
    if (!SI.has(u)) problems.push(`${where}: "${u}" is not a unit the query parser reads`);
    return u as SiUnit;
  };
  const checkRole = (id: string, u: string, where: string) => {
    const p = unknownRole(id, u, where);
    if (p) problems.push(p);
  };
  for (const f of entries) {
    const at = `families "${f.id}"`;
    if (ids.has(f.id)) problems.push(`${at}: id used twice`);
    ids.add(f.id);
    if (f.generic) generic.add(f.id);
    for (const w of f.words) {
      const other = words.get(w);
      if (other !== undefined) problems.push(`${at}.words: "${w}" already names "${other}"`);
      else words.set(w, f.id);
    }
    for (const s of f.subtypes ?? []) {
      if (!f.words.includes(s)) problems.push(`${at}.subtypes: "${s}" is not one of its words`);
      subtypes.add(s);
    }
    try {
      category.set(f.id, new RegExp(f.category, 'i'));
    } catch (e) {
      problems.push(`${at}.category: ${(e as Error).message}`);
    }
    if (f.bareUnit !== undefined) bareUnit[f.id] = unit(f.bareUnit, `${at}.bareUnit`);
    if (f.roles) {
      for (const [u, r] of Object.entries(f.roles)) checkRole(r, unit(u, `${at}.roles`), `${at}.roles.${u}`);
      contextRoles[f.id] = Object.freeze({ ...f.roles });
    }
    if (f.rolesBySize) {
      const out: Partial<Record<SiUnit, readonly (readonly [number, RoleId])[]>> = {};
      for (const [u, list] of Object.entries(f.rolesBySize)) {
        list.forEach(([, r], i) => checkRole(r, unit(u, `${at}.rolesBySize`), `${at}.rolesBySize.${u}[${i}]`));
        out[u as SiUnit] = list.map(([below, r]) => [below ?? Infinity, r] as const);
      }
      magnitudeRoles[f.id] = Object.freeze(out);
    }
    if (f.pairedRoles) {
      for (const [u, pair] of Object.entries(f.pairedRoles)) pair.forEach((r, i) => checkRole(r, unit(u, `${at}.pairedRoles`), `${at}.pairedRoles.${u}[${i}]`));
      pairedRoles[f.id] = Object.freeze({ ...f.pairedRoles });
    }
  }
  if (problems.length) throw new VocabularyError('families.json', problems);
  return { ids, words, subtypes, generic, category, bareUnit, contextRoles, magnitudeRoles, pairedRoles };
}

const built = build(loadVocabularyFile<{ families: FamilyEntry[] }>('families').families);

/** Every family id, in the data file's order. */
export const FAMILIES: readonly Family[] = Object.freeze([...built.ids]);

/** The family with this id; throws for an id families.json lacks (code that names a family says which at start-up). */
export function family(id: string): Family {
  if (!built.ids.has(id)) throw new VocabularyError('families.json', [`no family "${id}" (named in code)`]);
  return id;
}

/** Families too broad to decide a context when a more specific one is also named ("zener diode" -> zener). */
export const GENERIC_FAMILIES: ReadonlySet<Family> = built.generic;

/** Lower-case words and phrases (space-separated; hyphens count as spaces) -> family. */
export const FAMILY_WORDS: ReadonlyMap<string, Family> = built.words;

/**
 * FAMILY_WORDS phrases that name a narrower kind than their family ("tantalum" capacitors, "header"
 * connectors, logic "gates"): a query that says one says more than its family, so its words count as
 * unread (QueryUnderstanding.unread) although they name the family.
 */
export const SUBTYPE_PHRASES: ReadonlySet<string> = built.subtypes;

/** Per family, the category-name pattern that marks a part as one of it (case-insensitive). */
export const FAMILY_CATEGORY: ReadonlyMap<Family, RegExp> = built.category;

/**
 * The unit a value typed without one ("10k", "4u7", "16M", "220") has in a family context; absent: no
 * inference (the token stays a free-text term).
 */
export const CONTEXT_BARE_UNIT: Readonly<Partial<Record<Family, SiUnit>>> = built.bareUnit;

/** Family context -> role per unit (only where it differs from DEFAULT_ROLES). */
export const CONTEXT_ROLES: Readonly<Partial<Record<Family, ByUnit<RoleId>>>> = built.contextRoles;

/**
 * A single quantity whose magnitude says which spec it is, in a family context, when no qualifier word
 * does: the first [below, role] whose bound the value is under (an op amp's "1.6mV" is its input offset).
 */
export const MAGNITUDE_ROLES: Readonly<Partial<Record<Family, ByUnit<readonly (readonly [number, RoleId])[]>>>> = built.magnitudeRoles;

/**
 * Two quantities of one unit typed for a family whose parts carry two specs of that unit, told apart by
 * magnitude: [role of the smaller, role of the larger] ("35V 12V LDO": input 35 V, output 12 V).
 */
export const PAIRED_ROLES: Readonly<Partial<Record<Family, ByUnit<readonly [RoleId, RoleId]>>>> = built.pairedRoles;
