/**
 * The root of the Supply schema: the sup* queries with the names, arguments, types and nullability of the
 * public Nexar (Octopart) Supply API, so that its clients run unchanged; `q` on supManufacturers and
 * supCategories and `errorString` on SupPartMatch are this service's additions. The descriptions say what
 * this catalogue answers (README "GraphQL").
 */
export const QUERY_SDL = /* GraphQL */ `
  """
  A JSON object (filters: attribute shortnames, manufacturer_id, category_id -> lists of values; counts).
  """
  scalar Map

  """
  An ISO-8601 date and time.
  """
  scalar Time

  type Query {
    """
    Every attribute (spec) of the catalogue: the shortname is the key of search filters and aggregations. Free.
    """
    supAttributes: [SupAttribute!]!
    """
    Manufacturers by ids or slugs (in the order asked, unknown ones left out), or matched by name or alias (q, best first), or all of them. Free.
    """
    supManufacturers(ids: [String!], slugs: [String!], minNumberOfActiveParts: Int, q: String): [SupCompany!]!
    """
    Distributors whose offers the catalogue holds, by ids or slugs, or all of them. Free.
    """
    supSellers(ids: [String!], slugs: [String!]): [SupCompany!]!
    """
    Categories by ids or paths (in the order asked, unknown ones left out), matched by name (q, best first), or every category of the tree. Free.
    """
    supCategories(ids: [String!], paths: [String!], q: String): [SupCategory!]!
    """
    Parts by id, in the order asked, null for an unknown id; at most 50. Paid: one unit per part returned.
    """
    supParts(
      ids: [String!]!
      country: String! = "US"
      currency: String! = "USD"
      distributorApi: Boolean
      distributorApiTimeout: String! = "3s"
      customPricingCredentials: [SupApiCredentials!]
    ): [SupPart]!
    """
    Keyword search over MPN, manufacturer, description, category, package and specs (BM25), under the filters; without q, every part the filters admit, most stock first. Paid: one unit per part in results.
    """
    supSearch(
      q: String
      country: String! = "US"
      currency: String! = "USD"
      start: Int
      limit: Int
      sort: String
      sortDir: SupSortDirection
      inStockOnly: Boolean
      filters: Map
      distributorApi: Boolean
      distributorApiTimeout: String! = "3s"
      customPricingCredentials: [SupApiCredentials!]
    ): SupPartResultSet!
    """
    MPN search (exact, packaging variants and alternate MPNs, prefix, infix, fuzzy; case and punctuation aside) under the filters; without q, every part the filters admit. Paid: one unit per part in results.
    """
    supSearchMpn(
      q: String
      country: String! = "US"
      currency: String! = "USD"
      start: Int
      limit: Int
      sort: String
      sortDir: SupSortDirection
      inStockOnly: Boolean
      filters: Map
      distributorApi: Boolean
      distributorApiTimeout: String! = "3s"
      customPricingCredentials: [SupApiCredentials!]
    ): SupPartResultSet!
    """
    Matches BOM lines to parts, one SupPartMatch per query in order; at most 250 queries. Paid: one unit per part returned.
    """
    supMultiMatch(
      queries: [SupPartMatchQuery!]!
      options: SupPartMatchOptions
      country: String! = "US"
      currency: String! = "USD"
      distributorApi: Boolean
      distributorApiTimeout: String! = "3s"
      customPricingCredentials: [SupApiCredentials!]
    ): [SupPartMatch!]!
  }

  enum SupSortDirection {
    asc
    desc
  }

  """
  Credentials for distributor APIs. Accepted for compatibility; this catalogue answers from its own offers.
  """
  input SupApiCredentials {
    apiName: String!
    clientId: String
    clientSecret: String
    username: String
    password: String
    apiKey: String
  }

  """
  One BOM line: an MPN (or mpnOrSku), optionally its manufacturer (then only that manufacturer's parts match), the page of parts wanted and an echo.
  """
  input SupPartMatchQuery {
    mpn: String
    sku: String
    mpnOrSku: String
    manufacturer: String
    seller: String
    start: Int! = 0
    limit: Int! = 3
    reference: String
  }

  input SupPartMatchOptions {
    """
    Only parts with at least one authorized seller.
    """
    requireAuthorizedSellers: Boolean = false
    """
    Only parts in stock.
    """
    requireStockAvailable: Boolean = false
    """
    Filters as in supSearch.
    """
    filters: Map
  }
`;
