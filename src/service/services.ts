/**
 * The use cases, one plain function each in this folder, bound once by the composition root
 * (src/composition.ts) to the adapters it chose. The REST routes and GraphQL resolvers call these and
 * only present their answers; the job workers and the relevance runner call the same functions.
 */
import type { Account } from '../accounts/port.ts';
import type { PartRecord } from '../catalog/part.ts';
import type { JobListQuery } from '../jobs/port.ts';
import type { JobsDeps } from '../jobs/lifecycle.ts';
import type { AgenticResult } from '../search/agentic.ts';
import { agentic, type AgenticQuery } from './agentic-search.ts';
import { listAttributes } from './attributes.ts';
import { browseCategories, getCategory, matchCategories } from './categories.ts';
import type { TextSearchDeps, UsageDeps } from './deps.ts';
import {
  cancelOwnJob,
  getJob,
  listJobs,
  startDeepDive,
  startDiscovery,
  type DeepDiveRequest,
  type DiscoveryRequest,
  type JobRequest,
  type JobUseCaseDeps,
} from './jobs.ts';
import { listsFor, type ListViewer } from './lists.ts';
import { getManufacturer, matchManufacturers } from './manufacturers.ts';
import { matchLines, matchOne, type BatchLine } from './match.ts';
import { mpnSearch } from './mpn-search.ts';
import { facetCounts, parametricSearch, type FacetsRequest, type FiltersAt, type ParametricRequest } from './parametric.ts';
import { partResolver } from './part-detail.ts';
import { currentUsage } from './usage.ts';

export interface ServiceDeps extends TextSearchDeps, UsageDeps {
  jobs: JobUseCaseDeps['jobs'];
}

export function buildServices(d: ServiceDeps) {
  const resolvePart = partResolver(d);
  const jobDeps: JobUseCaseDeps = { jobs: d.jobs, search: d, resolvePart };
  return {
    parts: {
      searchMpn: (mpn: string): Promise<PartRecord[]> => mpnSearch(d, mpn),
      agentic: (q: AgenticQuery): Promise<AgenticResult> => agentic(d, q),
      parametric: (viewer: ListViewer, req: ParametricRequest, filtersAt?: FiltersAt) => parametricSearch(d, viewer, req, filtersAt),
      facets: (viewer: ListViewer, req: FacetsRequest, filtersAt?: FiltersAt) => facetCounts(d, viewer, req, filtersAt),
      match: (line: BatchLine) => matchOne(d, line),
      matchBatch: (lines: readonly BatchLine[]) => matchLines(d, lines),
      /** A part by manufacturer and MPN slugs (part detail), with whether they are its canonical ones. */
      resolve: resolvePart,
      /** Parts by id, in the order given; unknown ids are left out. */
      byIds: (ids: readonly number[]): Promise<PartRecord[]> => d.engine.getParts(ids),
    },
    categories: {
      browse: (opts: { parent?: string; all?: boolean }) => browseCategories(d, opts),
      get: (slug: string) => getCategory(d, slug),
      match: (query: string, limit: number) => matchCategories(d, query, limit),
    },
    manufacturers: {
      get: (slug: string) => getManufacturer(d, slug),
      match: (query: string, limit: number) => matchManufacturers(d, query, limit),
    },
    lists: {
      visible: (viewer: ListViewer) => listsFor(d, viewer),
    },
    attributes: {
      list: () => listAttributes(d),
    },
    usage: {
      current: (account: Account) => currentUsage(d, account),
    },
    jobs: {
      discover: (r: JobRequest, req: DiscoveryRequest, filtersAt?: FiltersAt) => startDiscovery(jobDeps, r, req, filtersAt),
      deepDive: (r: JobRequest, req: DeepDiveRequest) => startDeepDive(jobDeps, r, req),
      get: (account: Pick<Account, 'id'>, jobId: string) => getJob(jobDeps, account, jobId),
      list: (account: Pick<Account, 'id'>, q: JobListQuery) => listJobs(jobDeps, account, q),
      cancel: (account: Pick<Account, 'id'>, jobId: string) => cancelOwnJob(jobDeps, account, jobId),
    },
  };
}

export type Services = ReturnType<typeof buildServices>;

/** What the job workers' discovery retrieves with: the agentic search use case (the REST route's ranking). */
export function candidateFinder(d: TextSearchDeps): JobsDeps['findCandidates'] {
  return async (requirements, filters, limit) => (await agentic(d, { query: requirements, limit, offset: 0, filters })).parts;
}
