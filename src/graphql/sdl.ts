/**
 * The GraphQL schema's SDL: types and queries with a description each (README "GraphQL" explains the
 * choices; schema.ts resolves it). Field names are the REST bodies' (snake_case).
 */
export const SDL = /* GraphQL */ `
  """
  Any JSON value (PartFilters: the same object as the REST body's filters).
  """
  scalar JSON

  """
  Root fields are nullable: one that fails is null beside the others' data, its error in "errors".
  """
  type Query {
    """
    MPN search: exact, packaging variants and aliases, prefix, infix, fuzzy; at most 10, best first. Paid: one unit per part.
    """
    supSearchMpn(mpn: String!): SupSearchMpnResult
    """
    Parametric search: BM25 over the text fields when q is given, then PartFilters. Paid: one unit per part in results.
    """
    supSearch(q: String, filters: JSON, limit: Int = 10, offset: Int = 0): SupSearchResult
    """
    Match BOM lines (MPN, optional manufacturer) to parts, in order; at most 250 lines. Paid: one unit per part returned.
    """
    supMultiMatch(queries: [MatchQuery!]!): [MatchLineResult!]
    """
    Parts by id or by slug ("<manufacturer slug>/<MPN slug>", a result's slug), in the order asked, null when unknown; at most 50 in all. Paid: one unit per part found.
    """
    supParts(ids: [ID!], slugs: [String!]): [Part]
    """
    Manufacturers: by slugs (null when unknown), matched by name or alias (best first), or else the largest by part count. Free.
    """
    supManufacturers(slugs: [String!], q: String, limit: Int = 20): [Manufacturer]
    """
    Categories: by full path slugs (null when unknown), matched by name (best first), or else the children of parent (the roots without). Free.
    """
    supCategories(slugs: [String!], q: String, parent: String, limit: Int = 20): [Category]
  }

  type SupSearchMpnResult {
    """
    Parts in results (all candidates when results is not selected).
    """
    hits: Int!
    results: [Part!]!
    """
    Set when results were capped to the parts the account can still pay for (monthly quota or credit).
    """
    warnings: [String!]!
  }

  type SupSearchResult {
    """
    Parts matching q and filters.
    """
    total: Int!
    hits: Int!
    offset: Int!
    results: [Part!]!
    """
    Set when results were capped to the parts the account can still pay for (monthly quota or credit).
    """
    warnings: [String!]!
    """
    Breakdowns over the whole filtered set (not only this page); computed when selected. Free.
    """
    aggregations(specs: [String!], size: Int = 20): Aggregations
  }

  type Aggregations {
    total: Int!
    manufacturers: [Bucket!]!
    categories: [Bucket!]!
    """
    Value buckets and numeric extents of the named specs (default: the 10 most common in the set).
    """
    specs: [SpecFacet!]!
    """
    Every spec name in the set with the number of parts that have it, most common first.
    """
    available_specs: [SpecCount!]!
  }

  type Bucket {
    slug: String!
    name: String!
    count: Int!
  }

  type SpecFacet {
    name: String!
    parts: Int!
    values: [ValueCount!]!
    min: Float
    max: Float
    unit: String
  }

  type ValueCount {
    value: String!
    count: Int!
  }

  type SpecCount {
    name: String!
    count: Int!
  }

  input MatchQuery {
    query: String!
    manufacturer: String
    limit: Int
  }

  type MatchLineResult {
    index: Int!
    query: String!
    """
    Null when the line could not be matched (see error).
    """
    ambiguous: Boolean
    results: [MatchCandidate!]
    error: LineError
    """
    Set when this line's candidates were capped to the parts the account can still pay for.
    """
    errorString: String
  }

  type MatchCandidate {
    part: Part!
    confidence: Int!
    exact: Boolean!
  }

  type LineError {
    type: String!
    message: String!
  }

  type Part {
    id: ID!
    mpn: String!
    slug: String
    description: String!
    long_description: String
    part_status: String
    canonical_id: ID
    manufacturer: ManufacturerRef
    series: Series
    categories: [CategoryRef!]
    specs: [Spec!]
    images: [Image!]
    documents: [Document!]
    offers: [Offer!]
    package: String
  }

  type ManufacturerRef {
    id: ID
    name: String
    slug: String
  }

  type Series {
    name: String!
  }

  type SlugName {
    slug: String!
    name: String!
  }

  type CategoryRef {
    slug: String!
    name: String!
    path: [SlugName!]!
  }

  type Spec {
    spec_name: String!
    spec_value: String!
    spec_type: String!
  }

  type Image {
    url: String!
    caption: String
  }

  type Document {
    name: String!
    type: String!
    url: String!
  }

  type Offer {
    distributor: String!
    sku: String
    """
    Float: stock counts can exceed GraphQL's 32-bit Int.
    """
    stock: Float
    moq: Float
    currency: String!
    """
    [quantity, unit price] pairs.
    """
    price_breaks: [[Float!]!]!
  }

  type Manufacturer {
    slug: String!
    name: String!
    logo: String
    aliases: [String!]!
    part_count: Int!
    """
    How well q matched (0-100); null when not asked by q.
    """
    confidence: Int
  }

  type Category {
    slug: String!
    name: String!
    description: String!
    path: [SlugName!]!
    has_children: Boolean!
    part_count: Int!
    children: [CategoryNode!]!
    """
    How well q matched (0-100); null when not asked by q.
    """
    confidence: Int
  }

  type CategoryNode {
    slug: String!
    name: String!
    has_children: Boolean!
    part_count: Int!
  }
`;

/** Every field of a Part as a selection set's contents (what REST returns for a part): for clients, the bench and tests. */
export const PART_SELECTION = `id mpn slug description long_description part_status canonical_id package
  manufacturer { id name slug } series { name } categories { slug name path { slug name } }
  specs { spec_name spec_value spec_type } images { url caption } documents { name type url }
  offers { distributor sku stock moq currency price_breaks }`;
