/** Part lifecycle values of SPEC.md ("Part lifecycle status") and their normalisation. */
export const PART_STATUSES = ['active', 'engineering_sample', 'nrnd', 'ltb', 'obsolete', 'unknown'] as const;
export type PartStatus = (typeof PART_STATUSES)[number];

const SYNONYMS: Record<string, PartStatus> = {
  active: 'active',
  inproduction: 'active',
  production: 'active',
  engineeringsample: 'engineering_sample',
  preproduction: 'engineering_sample',
  preview: 'engineering_sample',
  sample: 'engineering_sample',
  nrnd: 'nrnd',
  notrecommendedfornewdesigns: 'nrnd',
  notrecommended: 'nrnd',
  ltb: 'ltb',
  lasttimebuy: 'ltb',
  obsolete: 'obsolete',
  discontinued: 'obsolete',
  eol: 'obsolete',
  endoflife: 'obsolete',
  unknown: 'unknown',
};

/** The lifecycle status a value names, case- and punctuation-insensitive; null when it names none. */
export function readStatus(raw: string): PartStatus | null {
  return SYNONYMS[raw.toLowerCase().replace(/[^a-z]/g, '')] ?? null;
}

/** readStatus; anything unrecognised (or absent) is "unknown". */
export function normaliseStatus(raw: string | null | undefined): PartStatus {
  return (raw == null ? null : readStatus(raw)) ?? 'unknown';
}

export function isPartStatus(v: string): v is PartStatus {
  return (PART_STATUSES as readonly string[]).includes(v);
}
