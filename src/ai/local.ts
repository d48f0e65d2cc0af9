/**
 * The local AI provider: the default, needing no LLM and no key, and spending no tokens. It judges
 * with rules over the catalogue's own fields, so every answer is traceable to the record:
 *   - rank: the retrieval order, moved by how many of the requirements' stated constraints a part
 *     meets (the query understanding of agentic search: quantities, values such as X7R, packages) and
 *     by the soft preferences the requirements name (low price, stock, active lifecycle);
 *   - answer: each question is matched to the part's specs and fields by the words of the question,
 *     its hint and key (names compared by their spec-name key), else to the sentence of the part's
 *     documents sharing the most words with it; the value is shaped to the requested format from
 *     what was found, and an unanswerable question says so (`not_available`) rather than guess.
 * An OpenAI-compatible endpoint (ai/openai.ts) replaces it when LLM_PROVIDER=openai.
 */
import type { PartRecord, PartSpec } from '../catalog/part.ts';
import { formatSi, parseQuantity, parseWholeQuantity, type SiUnit } from '../catalog/units.ts';
import { specAttributeId } from '../vocabulary/attributes.ts';
import { QUALIFIERS, UNIT_NOUNS } from '../vocabulary/qualifiers.ts';
import { role } from '../vocabulary/roles.ts';
import { satisfiesLoosely } from '../search/spec-match.ts';
import { understandQuery, type QueryUnderstanding } from '../search/understand.ts';
import type { AiProvider, AnswerRequest, Deliverable, ProviderAnswer, RankAnswer, RankRequest, Source } from './port.ts';

const NO_TOKENS = { input_tokens: 0, output_tokens: 0 };

const PREFERENCES = {
  price: /\b(cheap(est)?|low[- ]cost|lowest[- ](cost|price)|inexpensive|budget|cost[- ]effective|affordable|price)\b/i,
  stock: /\b(in[- ]stock|availab(le|ility)|stock|lead[- ]time|supply chain)\b/i,
  lifecycle: /\b(active|not (obsolete|eol)|long[- ]term|lifecycle|production)\b/i,
};

function abortIf(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : Object.assign(new Error('aborted'), { name: 'AbortError' });
}

/** The stated constraints of the requirements a part meets, and those it does not, as short labels. */
function constraintCheck(u: QueryUnderstanding, p: PartRecord): { met: string[]; missed: string[] } {
  const met: string[] = [];
  const missed: string[] = [];
  for (const c of [...u.specs, ...u.values]) {
    const label = c.source;
    (satisfiesLoosely(p.specs, c) ? met : missed).push(label);
  }
  for (const pkg of u.packages) {
    const has = [p.package ?? '', ...p.specs.filter((s) => /package|case/i.test(s.name)).map((s) => s.value)].some((v) => v.toUpperCase().includes(pkg));
    (has ? met : missed).push(pkg);
  }
  return { met, missed };
}

const usdText = (v: number) => `$${v === 0 ? '0' : v < 0.01 ? v.toPrecision(2) : v.toFixed(v < 1 ? 4 : 2)}`;

function availability(p: PartRecord): string {
  const stock = p.stock > 0 ? `${p.stock.toLocaleString('en-US')} in stock` : 'no stock listed';
  const price = p.min_price_usd !== null ? `, from ${usdText(p.min_price_usd)} a unit` : '';
  return `${stock}${price}`;
}

function rank(req: RankRequest): RankAnswer {
  abortIf(req.signal);
  const u = understandQuery(req.requirements);
  const wants = {
    price: PREFERENCES.price.test(req.requirements),
    stock: PREFERENCES.stock.test(req.requirements),
    lifecycle: PREFERENCES.lifecycle.test(req.requirements),
  };
  const stated = u.specs.length + u.values.length + u.packages.length;
  const prices = req.candidates.map((p) => p.min_price_usd).filter((x): x is number => x !== null);
  const cheapest = prices.length ? Math.min(...prices) : null;
  const scored = req.candidates.map((p, i) => {
    const check = constraintCheck(u, p);
    // Retrieval order first (its reciprocal rank), each stated constraint met worth more than any
    // move in that order, the named preferences as tie-breakers of similar fits.
    let score = 1 / (10 + i) + (stated ? (check.met.length / stated) * 0.5 : 0);
    if (wants.price && p.min_price_usd !== null && cheapest !== null) score += 0.05 * (cheapest / Math.max(p.min_price_usd, 1e-9));
    if (wants.stock && p.stock > 0) score += 0.05 * Math.min(1, Math.log10(1 + p.stock) / 6);
    if (wants.lifecycle && p.status === 'active') score += 0.03;
    return { p, i, check, score };
  });
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  const picks = scored.slice(0, req.limit);
  const rationale = (x: (typeof scored)[number]) => {
    const parts: string[] = [];
    if (stated) {
      parts.push(
        x.check.met.length
          ? `Meets ${x.check.met.length} of ${stated} stated constraints (${x.check.met.join(', ')})`
          : `Meets none of the ${stated} stated constraints`,
      );
      if (x.check.missed.length) parts.push(`not shown to meet ${x.check.missed.join(', ')}`);
    } else parts.push(`Closest match to the requirements by search relevance (retrieved #${x.i + 1})`);
    const key = x.p.specs
      .slice(0, 4)
      .map((s) => `${s.name} ${s.value}`)
      .join(', ');
    return `${parts.join('; ')}. ${x.p.category?.name ?? 'Uncategorised'}${x.p.package ? `, ${x.p.package}` : ''}${key ? `: ${key}` : ''}. ${availability(x.p)}; ${x.p.status}.`;
  };
  const name = (p: PartRecord) => `${p.mpn} (${p.manufacturer.name})`;
  let summary: string;
  if (picks.length === 0) summary = `No candidate parts were found for "${req.requirements}" under the given filters.`;
  else {
    const [first, second] = picks;
    summary = `${picks.length} of ${req.candidates.length} retrieved candidates ranked by the stated constraints${
      wants.price || wants.stock || wants.lifecycle
        ? ` and the preference for ${Object.keys(wants)
            .filter((k) => wants[k as keyof typeof wants])
            .join(', ')}`
        : ''
    }. Top pick: ${name(first!.p)}, ${stated ? `meeting ${first!.check.met.length} of ${stated} constraints` : 'the closest match'}, ${availability(first!.p)}.`;
    if (second) {
      summary += ` Runner-up: ${name(second.p)}, ${stated ? `meeting ${second.check.met.length} of ${stated}` : 'next by relevance'}, ${availability(second.p)}.`;
    }
    summary += ' Ranked by the local rules provider (no LLM): judge trade-offs beyond the stated constraints yourself.';
  }
  return { picks: picks.map((x) => ({ id: x.p.id, fit_rationale: rationale(x) })), summary, usage: NO_TOKENS };
}

// ---------------------------------------------------------------------------------------------
// Deep dive

const STOP = new Set(
  'a an and are as at be by can do does for from has have how i in is it its let me of on or part please so that the this to was what when where which who why will with would you your value give tell'.split(
    ' ',
  ),
);

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1 && !STOP.has(w))
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

/** The record's own fields a question may ask about, as specs. */
function fieldSpecs(p: PartRecord): PartSpec[] {
  const f = (name: string, value: string | null): PartSpec[] => (value ? [{ name, value, num: null, min: null, max: null, unit: null }] : []);
  return [
    ...f('Package', p.package),
    ...f('Manufacturer', p.manufacturer.name),
    ...f('Lifecycle status', p.status),
    ...f('Series', p.series),
    ...f('Category', p.category?.name ?? null),
    ...f('Description', p.description),
    ...f('Stock', p.stock > 0 ? String(p.stock) : null),
    ...f('Unit price (USD, lowest)', p.min_price_usd !== null ? String(p.min_price_usd) : null),
  ].map((s) => (s.name === 'Stock' || s.name.startsWith('Unit price') ? { ...s, num: Number(s.value), min: Number(s.value), max: Number(s.value) } : s));
}

/** Words that say what kind of quantity a spec is, not which: "Output Current" is about output. */
const GENERIC = new Set(['voltage', 'current', 'power', 'rating', 'rated', 'max', 'maximum', 'min', 'minimum', 'typ', 'typical', 'value', 'range', 'dc', 'ac']);

/**
 * How well a spec name answers the question: every word of the name (its parenthesised abbreviation
 * aside) is among the question's words, or the abbreviation is ("Vdss"); the score is the number of
 * words matched, distinctive words counting more. 0 when the name does not match: one shared word such
 * as "voltage" is no match ("dropout voltage" is not "Output Voltage").
 */
function nameScore(q: ReadonlySet<string>, name: string): number {
  const aliases = [...name.matchAll(/\(([^)]*)\)/g)].flatMap((m) => words(m[1]!));
  const named = words(name.replace(/\([^)]*\)/g, ' '));
  if (named.length === 0 && aliases.length === 0) return 0;
  if (aliases.some((a) => a.length > 1 && q.has(a))) return 2 + named.filter((w) => q.has(w)).length;
  if (named.length === 0 || !named.every((w) => q.has(w))) return 0;
  return named.reduce((sum, w) => sum + (GENERIC.has(w) ? 0.5 : 1), 0);
}

/**
 * Canonical attributes the question's words name through the search vocabulary's qualifiers ("quiescent
 * current" -> the quiescent-current role: quiescent, supply and standby current, whatever the maker called
 * them; "drain current" -> "Id"), when the quantity's unit is known: the requested unit, else a unit noun
 * of the question ("current").
 */
function roleAttributes(q: ReadonlySet<string>, unit: SiUnit | null): Set<string> {
  const units = new Set<SiUnit>(unit ? [unit] : [...q].flatMap((w) => (UNIT_NOUNS.has(w) ? [UNIT_NOUNS.get(w)!] : [])));
  const keys = new Set<string>();
  if (units.size === 0) return keys;
  for (const w of q) {
    const roles = QUALIFIERS.get(w);
    if (!roles) continue;
    for (const u of units) {
      const id = roles[u];
      if (id) for (const a of role(id).attributes) keys.add(a);
    }
  }
  return keys;
}

function bestSpecs(p: PartRecord, d: Deliverable): PartSpec[] {
  const q = new Set(words(`${d.question} ${d.response_format.hint ?? ''} ${/^\d+$/.test(d.key) ? '' : d.key.replace(/[_-]+/g, ' ')}`));
  const unit = d.response_format.unit ? (parseQuantity(`1${d.response_format.unit}`)?.unit ?? null) : null;
  const byRole = roleAttributes(q, unit);
  const options = d.response_format.type === 'enum' ? (d.response_format.enum_values ?? []).map((o) => o.toLowerCase()) : [];
  const scored = [...p.specs, ...fieldSpecs(p)]
    .map((s) => {
      let score = nameScore(q, s.name);
      // A spec of an attribute a qualifier of the question stands for: as good as a two-word match of its name.
      if (score === 0 && byRole.has(specAttributeId(s) ?? '')) score = 1.5;
      // An enum question whose options include this spec's value, on a spec the question names in part
      // ("fixed or adjustable output?" and Output type = Fixed).
      if (score === 0 && options.includes(s.value.toLowerCase()) && words(s.name).some((w) => q.has(w))) score = 0.75;
      // A requested unit breaks ties towards a spec in that unit; it never makes a match.
      if (score > 0 && unit && s.unit === unit) score += 0.25;
      return { s, score };
    })
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score);
  if (scored.length === 0) return [];
  const top = scored[0]!.score;
  return scored.filter((x) => x.score >= top - 1e-9).map((x) => x.s);
}

/** The sentence of the part's documents sharing the most (and at least two) words with the question. */
function bestPassage(p: PartRecord, d: Deliverable): { document: number; quote: string } | null {
  const q = new Set(words(`${d.question} ${d.response_format.hint ?? ''}`));
  let best: { document: number; quote: string } | null = null;
  let bestShared = 1; // at least two words in common
  for (const [i, doc] of p.documents.entries()) {
    for (const sentence of doc.text?.split(/(?<=[.!?])\s+|\n+/) ?? []) {
      const w = new Set(words(sentence));
      let shared = 0;
      for (const x of q) if (w.has(x)) shared++;
      if (shared > bestShared) {
        best = { document: i, quote: sentence.trim().slice(0, 500) };
        bestShared = shared;
      }
    }
  }
  return best;
}

/** A spec's number in the requested unit ("mA" of a value stored in A), or null. */
function numberIn(s: PartSpec, unit: string | undefined): number | null {
  const n = s.num ?? (s.min !== null && s.min === s.max ? s.min : null) ?? parseWholeQuantity(s.value)?.value ?? null;
  if (n === null) return null;
  if (!unit) return n;
  const want = parseQuantity(`1${unit}`);
  if (!want || want.unit === null) return null;
  if (s.unit !== null && s.unit !== want.unit) return null;
  return Number((n / want.value).toPrecision(12));
}

/** Lower case, runs of spaces, hyphens and underscores as one space ("N-Channel" and "n channel" alike). */
const folded = (t: string) =>
  t
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')
    .trim();

/** The option a text is or holds as a whole word ("SOT-23-5" in "SOT-23-5 (SC-74A)"; "A" is no word of "SMA"); the value itself first. */
function enumOption(options: readonly string[], values: readonly string[]): string | undefined {
  const hay = values.map(folded);
  const asWord = (o: string) => new RegExp(`(^|[^\\p{L}\\p{N}])${folded(o).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}\\p{N}])`, 'u');
  return options.find((o) => hay.some((v) => v === folded(o))) ?? options.find((o) => hay.some((v) => asWord(o).test(v)));
}

/** Options that say nothing of the part on their own: an answer from them would be read from any spec. */
const VAGUE_OPTIONS = new Set(['yes', 'no', 'true', 'false', 'none', 'other', 'unknown', 'n/a', 'both']);

/**
 * An enum question no spec name answers ("N-channel or P-channel?" of a MOSFET whose "Type" is
 * "N-Channel"; "fixed or adjustable output?" of a regulator whose description says "Adjustable"):
 * the option that the record's spec values, else its description and long description, hold, when
 * they hold exactly one of the options (two would be a guess). Cited from where it was found.
 */
function enumFromRecord(p: PartRecord, d: Deliverable): ProviderAnswer | null {
  const options = (d.response_format.enum_values ?? []).filter((o) => !VAGUE_OPTIONS.has(folded(o)));
  if (options.length < 2) return null;
  const bySpec = new Map<string, PartSpec[]>();
  for (const s of p.specs) {
    const o = enumOption(options, [s.value]);
    if (o) bySpec.set(o, [...(bySpec.get(o) ?? []), s]);
  }
  if (bySpec.size === 1) {
    const [option, specs] = [...bySpec][0]!;
    return {
      key: d.key,
      status: 'answered',
      value: option,
      explanation: `${specs[0]!.name} is "${specs[0]!.value}".`,
      sources: specs.map((s) => ({ document: null, quote: `${s.name}: ${s.value}` })),
    };
  }
  if (bySpec.size > 1) return null;
  const texts = [
    ['Description', p.description],
    ['Long description', p.long_description ?? ''],
  ] as const;
  const found = new Map<string, { field: string; text: string }>();
  for (const [field, text] of texts) for (const o of options) if (!found.has(o) && enumOption([o], [text])) found.set(o, { field, text });
  if (found.size !== 1) return null;
  const [option, where] = [...found][0]!;
  return {
    key: d.key,
    status: 'answered',
    value: option,
    explanation: `The part's ${where.field.toLowerCase()} says "${option}"; no spec names it.`,
    sources: [{ document: null, quote: `${where.field}: ${where.text.slice(0, 300)}` }],
  };
}

const notAvailable = (key: string, why: string): ProviderAnswer => ({ key, status: 'not_available', value: null, explanation: why, sources: [] });

function answerOne(p: PartRecord, d: Deliverable): ProviderAnswer {
  const f = d.response_format;
  const specs = bestSpecs(p, d);
  const specSources: Source[] = specs.map((s) => ({ document: null, quote: `${s.name}: ${s.value}` }));
  const named = specs.map((s) => s.name).join(', ');
  if (specs.length === 0) {
    const fromRecord = f.type === 'enum' ? enumFromRecord(p, d) : null;
    if (fromRecord) return fromRecord;
    const passage = f.type === 'text' || f.type === 'markdown' ? bestPassage(p, d) : null;
    if (passage) {
      return {
        key: d.key,
        status: 'answered',
        value: passage.quote,
        explanation: `No spec of the record answers this; the closest passage of "${p.documents[passage.document]!.name}" is quoted.`,
        sources: [passage],
      };
    }
    return notAvailable(d.key, `The catalogue record of ${p.mpn} has no spec, field or document passage that answers this question.`);
  }
  const first = specs[0]!;
  switch (f.type) {
    case 'number': {
      const n = numberIn(first, f.unit);
      if (n === null) {
        return notAvailable(
          d.key,
          `${first.name} is "${first.value}"${f.unit ? `, which is not one number in ${f.unit}` : ', which is not one number'}; read the range or conditions from the source.`,
        );
      }
      return { key: d.key, status: 'answered', value: n, explanation: `From the part's ${first.name} (${first.value}).`, sources: [specSources[0]!] };
    }
    case 'enum': {
      const hit = enumOption(
        f.enum_values ?? [],
        specs.map((s) => s.value),
      );
      if (!hit)
        return (
          enumFromRecord(p, d) ?? notAvailable(d.key, `${named}: "${specs.map((s) => s.value).join('", "')}" is none of ${(f.enum_values ?? []).join(', ')}.`)
        );
      return { key: d.key, status: 'answered', value: hit, explanation: `${first.name} is "${first.value}".`, sources: specSources };
    }
    case 'list': {
      const items = specs.flatMap((s) => s.value.split(/\s*[,;]\s*/)).filter((x) => x !== '');
      return { key: d.key, status: 'answered', value: [...new Set(items)], explanation: `From the part's ${named}.`, sources: specSources };
    }
    case 'JSON': {
      const value = Object.fromEntries(specs.map((s) => [s.name, s.num !== null && s.unit !== null ? { value: s.num, unit: s.unit, text: s.value } : s.value]));
      return { key: d.key, status: 'answered', value, explanation: `From the part's ${named}.`, sources: specSources };
    }
    case 'markdown':
      return {
        key: d.key,
        status: 'answered',
        value: specs.map((s) => `- **${s.name}**: ${s.value}${s.num !== null && s.unit ? ` (${formatSi(s.num, s.unit as never)})` : ''}`).join('\n'),
        explanation: `From the part's ${named}.`,
        sources: specSources,
      };
    default:
      return {
        key: d.key,
        status: 'answered',
        value: specs.map((s) => `${s.name}: ${s.value}`).join('; '),
        explanation: `From the part's ${named}.`,
        sources: specSources,
      };
  }
}

export function createLocalProvider(): AiProvider {
  return {
    name: 'local',
    free: true,
    async rank(req) {
      return rank(req);
    },
    async answer(req: AnswerRequest) {
      abortIf(req.signal);
      return { answers: req.deliverables.map((d) => answerOne(req.part, d)), usage: NO_TOKENS };
    },
    async close() {},
  };
}
