/**
 * Spec roles: which spec a quantity of a query means, as data (vocabulary/roles.json).
 *
 * How a quantity becomes a constraint (src/search/understand.ts):
 *   1. its unit (typed, or inferred: "4u7" -> F, "10k" -> Ω);
 *   2. a qualifier word right before or after it ("vin 12V", "12V input", "esr 10mΩ", "8KB RAM") ->
 *      QUALIFIERS (qualifiers.ts);
 *   3. otherwise the query's family context ("3.3V LDO" -> output voltage, "30V MOSFET" -> Vdss) ->
 *      CONTEXT_ROLES (families.ts);
 *   4. otherwise the unit's default role (DEFAULT_ROLES).
 * A role fixes the canonical attributes the quantity is compared with (attributes.json), the default
 * comparison (ratings are "at least", parasitics "at most", nominal values "equals" within a relative
 * window) and whether a typed range must be covered by the part ("-40 to 85C" operating temperature,
 * "2.7-5.5V" supply) rather than merely overlap it.
 */
import { SI_UNITS, type SiUnit } from '../catalog/units.ts';
import { attributeById } from './attributes.ts';
import { loadVocabularyFile, VocabularyError } from './load.ts';

export type ConstraintKind = 'equals' | 'at_least' | 'at_most';

/** A role id of roles.json ("resistance", "cap_voltage", "drain_source_voltage"...). */
export type RoleId = string;

export interface SpecRole {
  /** Canonical attribute ids the quantity is compared with, best first. */
  readonly attributes: readonly string[];
  readonly unit: SiUnit;
  /** Comparison when the query states none. */
  readonly kind: ConstraintKind;
  /** Relative half-width of the acceptance window of an `equals` target (default 0.01). */
  readonly window?: number;
  /** A typed range must be covered by the part's range (min <= lo and max >= hi), not just overlapped. */
  readonly covering?: boolean;
  /**
   * A reading by magnitude that names a spec of its own: the value never pairs with another of its
   * unit (PAIRED_ROLES). "5V 30kV tvs" is a 5 V stand-off and a 30 kV ESD rating, not a 30 kV clamp.
   */
  readonly unpaired?: boolean;
}

interface RolesFile {
  defaults: Record<string, string>;
  roles: Record<string, SpecRole & { note?: string }>;
}

const SI: ReadonlySet<string> = new Set(SI_UNITS);

function build(file: RolesFile) {
  const problems: string[] = [];
  const roles = new Map<RoleId, SpecRole>();
  for (const [id, r] of Object.entries(file.roles)) {
    if (!SI.has(r.unit)) problems.push(`roles.${id}.unit: "${r.unit}" is not a unit the query parser reads`);
    for (const a of r.attributes) {
      const attr = attributeById(a);
      if (!attr) problems.push(`roles.${id}.attributes: no attribute "${a}" in attributes.json`);
    }
    const { note: _note, ...role } = r;
    roles.set(id, Object.freeze({ ...role, attributes: Object.freeze([...r.attributes]) }));
  }
  for (const u of SI_UNITS) if (file.defaults[u] === undefined) problems.push(`defaults: no role for unit "${u}"`);
  for (const [u, id] of Object.entries(file.defaults)) {
    if (!SI.has(u)) problems.push(`defaults: "${u}" is not a unit the query parser reads`);
    else if (roles.get(id)?.unit !== u) problems.push(`defaults.${u}: "${id}" is ${roles.has(id) ? `a role in ${roles.get(id)!.unit}` : 'no role'}`);
  }
  if (problems.length) throw new VocabularyError('roles.json', problems);
  return { roles, defaults: file.defaults as Record<SiUnit, RoleId> };
}

const { roles, defaults } = build(loadVocabularyFile<RolesFile>('roles'));

/** Every role by id. */
export const ROLES: ReadonlyMap<RoleId, SpecRole> = roles;

/** Role of a unit when neither a qualifier nor the family context decides. */
export const DEFAULT_ROLES: Readonly<Record<SiUnit, RoleId>> = Object.freeze({ ...defaults });

/** The role with this id; throws for an id roles.json lacks (code that names a role says which at start-up). */
export function role(id: RoleId): SpecRole {
  const r = roles.get(id);
  if (!r) throw new VocabularyError('roles.json', [`no role "${id}" (named in code)`]);
  return r;
}

/** A role id checked against roles.json (throws at start-up for one it lacks): for code that compares role ids. */
export function roleId(id: string): RoleId {
  role(id);
  return id;
}

/**
 * Checks a role id given in another vocabulary file; returns the problem or null. Files that name roles
 * (families.json, qualifiers.json) report every unknown one together.
 */
export function unknownRole(id: string, unit: string, where: string): string | null {
  const r = roles.get(id);
  if (!r) return `${where}: no role "${id}" in roles.json`;
  if (r.unit !== unit) return `${where}: role "${id}" is in ${r.unit}, not ${unit}`;
  return null;
}
