/** Library types (Basic / Preferred / Extended) and the approved lists built from them. */
import type { SamplePart } from './record.ts';
import type { Rng } from './rng.ts';

export interface SampleList {
  name: string;
  kind: 'curated' | 'user';
  slug?: string;
  description?: string;
  account?: string;
  members: { mpn: string; manufacturer: string }[];
}

/** Members that deliberately match no generated part, to exercise "unmatched member" reporting. */
export const UNMATCHED_MEMBERS: readonly { mpn: string; manufacturer: string }[] = [
  { mpn: 'XC6206P332MR', manufacturer: 'Torex Semiconductor' },
  { mpn: 'CL10B105KO8NNNX', manufacturer: 'Samsung Electro-Mechanics' },
];

export const LIST_SIZES = { basic: 100, preferred: 150, user: 30 } as const;

const member = (p: SamplePart) => ({ mpn: p.mpn, manufacturer: p.manufacturer });

function orderable(p: SamplePart): boolean {
  return (p.status ?? '').toLowerCase() === 'active' && p.offers.some((o) => (o.stock ?? 0) > 0);
}

/**
 * Marks Basic and Preferred parts (mutating attributes.library_type) and returns the lists.
 * `weights` give each part's sampling weight for the Basic and Preferred libraries; only active parts
 * in stock somewhere are eligible.
 */
export function assignLibrariesAndLists(parts: SamplePart[], weights: { basic: readonly number[]; preferred: readonly number[] }, rng: Rng): SampleList[] {
  const total = parts.length;
  const nBasic = Math.min(LIST_SIZES.basic, Math.round(total * 0.04));
  const nPreferred = Math.min(LIST_SIZES.preferred, Math.round(total * 0.06));
  const nUser = Math.min(LIST_SIZES.user, Math.round(total * 0.012));

  const eligible = parts.map((_, i) => i).filter((i) => orderable(parts[i]!));
  const pickFrom = (pool: number[], k: number, w: (i: number) => number) => rng.sampleIndexes(pool.map(w), k).map((j) => pool[j]!);

  const basic = pickFrom(eligible, nBasic, (i) => weights.basic[i]!);
  const basicSet = new Set(basic);
  const rest = eligible.filter((i) => !basicSet.has(i));
  const preferred = pickFrom(rest, nPreferred, (i) => weights.preferred[i]!);
  for (const i of basic) parts[i]!.attributes.library_type = 'Basic';
  for (const i of preferred) parts[i]!.attributes.library_type = 'Preferred';

  // The user's own list: mostly Basic/Preferred parts, plus a few others they qualified themselves.
  const approvedPool = [...basic, ...preferred].sort((a, b) => a - b);
  const fromLibrary = pickFrom(approvedPool, Math.round(nUser * 0.7), () => 1);
  const taken = new Set(fromLibrary);
  const others = pickFrom(
    parts.map((_, i) => i).filter((i) => !taken.has(i)),
    nUser - fromLibrary.length,
    () => 1,
  );
  const user = [...fromLibrary, ...others].sort((a, b) => a - b);

  return [
    {
      name: 'Sample Basic parts',
      kind: 'curated',
      slug: 'sample-basic',
      description: 'Commonly stocked parts, modelled on an assembly house Basic library (no feeder loading fee).',
      members: basic.map((i) => member(parts[i]!)),
    },
    {
      name: 'Sample Preferred parts',
      kind: 'curated',
      slug: 'sample-preferred',
      description: 'Preferred extended parts: good availability, second-sourced where possible.',
      members: preferred.map((i) => member(parts[i]!)),
    },
    {
      name: 'My approved parts',
      kind: 'user',
      account: 'local',
      description: 'Parts approved for new designs by the local hardware team.',
      members: [...user.map((i) => member(parts[i]!)), ...UNMATCHED_MEMBERS.map((m) => ({ ...m }))],
    },
  ];
}
