/** The answers of the searches and of supMultiMatch: result sets, their aggregations, match lines. */
export const RESULTS_SDL = /* GraphQL */ `
  """
  A search's answer: the parts matched (hits), the page asked for (results) and aggregations over the whole set. Aggregations are free.
  """
  type SupPartResultSet {
    total: Int! @deprecated(reason: "use hits")
    """
    Parts in the result set. For an MPN search, counted up to start + limit or 100, whichever is more.
    """
    hits: Int!
    results: [SupPartResult!]
    """
    Attributes of the parts in results, by group.
    """
    specsViewAttributeGroups: [SupAttributeGroup!]!
    """
    Set when the request was read otherwise than written (an unknown filter ignored, no rate for a currency) or results were capped to the parts the account can still pay for.
    """
    warnings: [String!]
    """
    Value buckets and numeric extents of the attributes named by shortname, over the whole set.
    """
    specAggs(attributeNames: [String!]!, attributeSelection: SupSpecAggsSelection! = EXPLICIT, size: Int! = 10): [SupSpecAgg!]!
    manufacturerAgg(size: Int! = 10): [SupCompanyBucket!]!
    """
    Sellers of the parts in results.
    """
    distributorAgg(size: Int! = 10): [SupCompanyBucket!]!
    categoryAgg(size: Int! = 10): [SupCategoryBucket!]!
    """
    Always empty: the catalogue holds no CAD models.
    """
    cadAgg: [SupCadBucket!]!
    cadLevelAgg: [SupLevelBucket!]!
    inStockAgg: [SupInStockBucket!]!
    """
    The categories holding most of the set (at most 5).
    """
    suggestedCategories: [SupCategoryBucket!]!
    """
    The attributes most parts of the set have (at most 10).
    """
    suggestedFilters: [SupAttribute!]!
    """
    Every attribute of the parts of the set.
    """
    allFilters: [SupAttribute!]!
    appliedCategory: SupCategory
    appliedFilters: [SupAppliedFilter!]!
  }

  type SupPartResult {
    _cacheId: String!
    part: SupPart!
    explain: String! @deprecated(reason: "always empty")
    """
    The alternate MPN of the part that q matched, if it was one.
    """
    akaMpn: String
    description: String!
  }

  enum SupSpecAggsSelection {
    EXPLICIT
    WITH_SUGGESTED
    ALL
  }

  type SupSpecAgg {
    attribute: SupAttribute!
    buckets: [SupSpecBucket!]!
    min: Float
    max: Float
    siMin: String
    siMax: String
    displayMin: String
    displayMax: String
    valueType: String!
    units: String
    unitsName: String
    unitsSymbol: String
  }

  type SupSpecBucket {
    displayValue: String!
    floatValue: Float
    count: Int
  }

  type SupCompanyBucket {
    company: SupCompany!
    count: Int
  }

  type SupCategoryBucket {
    category: SupCategory!
    count: Int
  }

  type SupCadBucket {
    cadState: String!
    count: Int
  }

  type SupLevelBucket {
    level: Int
    displayName: String!
    count: Int
  }

  type SupInStockBucket {
    isInStock: Boolean!
    count: Int
  }

  type SupAppliedFilter {
    shortname: String!
    name: String!
    values: [String!]!
    displayValues: [String!]!
  }

  """
  The parts matching one BOM line.
  """
  type SupPartMatch {
    reference: String
    """
    Parts matched (the line's MPN, its packaging variants and alternate MPNs; of its manufacturer when one is given and known).
    """
    hits: Int!
    """
    The page start..start+limit of them, best first.
    """
    parts: [SupPart!]!
    """
    Why the line matched nothing it could have (no MPN, SKU lookup), or that its parts were capped.
    """
    error: String
    """
    The same as error (the name this service's specification uses).
    """
    errorString: String
  }
`;
