/**
 * SupPart and what it reaches: companies, categories, specs and attributes, sellers, offers and prices,
 * documents and images. Names, types and nullability follow the public Supply schema; where this
 * catalogue has no such fact the field is null, an empty list, or the equivalent its description names.
 */
export const PART_SDL = /* GraphQL */ `
  """
  A part of the catalogue: identity, manufacturer, descriptions, specs, documents, images and the sellers' offers.
  """
  type SupPart {
    """
    A stable cache key of this part.
    """
    _cacheId: String!
    """
    The part id (the same as REST's id, as a decimal string).
    """
    id: ID!
    """
    Manufacturer name and MPN.
    """
    name: String!
    mpn: String!
    """
    The MPN as written (this catalogue makes no guess at a generic MPN).
    """
    genericMpn: String!
    manufacturer: SupCompany!
    """
    Null: the catalogue holds no manufacturer page links.
    """
    manufacturerUrl: String
    """
    Null: the catalogue holds no sample links.
    """
    freeSampleUrl: String
    """
    The part's documents grouped by type (Datasheets, Application Notes...).
    """
    documentCollections: [SupDocumentCollection!]!
    shortDescription: String!
    """
    The one-line description, then the long description when there is one.
    """
    descriptions: [SupDescription!]!
    images: [SupImage!]!
    """
    The part's specs with their attributes, then its package (case_package) and lifecycle status (lifecyclestatus).
    """
    specs: [SupSpec!]!
    """
    The part's slug: <manufacturer slug>/<MPN slug>.
    """
    slug: String!
    """
    The part's URL on this service (its REST part detail resource).
    """
    octopartUrl: String!
    """
    Parts of the same category most like this one by description (at most 5). Paid like any part returned.
    """
    similarParts: [SupPart!]!
    """
    Always empty: the catalogue holds no companion products.
    """
    companionProducts: [SupSponsoredPart!]!
    category: SupCategory
    series: SupPartSeries
    bestImage: SupImage
    """
    The first datasheet among the part's documents.
    """
    bestDatasheet: SupDocument
    referenceDesigns: [SupReferenceDesign!]!
    """
    Null: the catalogue holds no CAD models.
    """
    cad: SupPartCad
    cadRequestUrl: String
    """
    The part id again (there is no older id).
    """
    v3uid: ID!
    """
    Numbers of related objects: specs, images, descriptions, documents, datasheets, sellers, offers, similar_parts.
    """
    counts: Map!
    """
    The median, over the offers, of the unit price of an order of 1,000 (USD, converted as asked); null without prices.
    """
    medianPrice1000: SupPricePoint
    """
    Stock over all offers.
    """
    totalAvail: Int!
    """
    Stock per seller, on average.
    """
    avgAvail: Float!
    """
    The distributors with offers for this part, most stock first.
    """
    sellers(includeBrokers: Boolean! = false, authorizedOnly: Boolean! = false, limit: Int, start: Int): [SupPartSeller!]!
    """
    The longest factory lead time of the offers that state one, in days.
    """
    estimatedFactoryLeadDays: Int
    """
    Alternate MPNs of this part.
    """
    akaMpns: [String!]!
    """
    Empty: not an Altium part.
    """
    altiumInternalId: String!
    circuitMakerInternal: SupCircuitMakerPartInfo
    extras: SupPartExtras
  }

  """
  A manufacturer or a distributor.
  """
  type SupCompany {
    """
    A stable numeric id (as a string): the key of the manufacturer_id filter.
    """
    id: ID!
    name: String!
    aliases: [String!]!
    displayFlag: String
    homepageUrl: String
    slug: String!
    isVerified: Boolean!
    isBroker: Boolean! @deprecated(reason: "use SupPartSeller.isBroker")
    isDistributorApi: Boolean!
    isOctocartSupported: Boolean!
  }

  """
  A category of the tree. Roots have parentId "0".
  """
  type SupCategory {
    """
    A stable numeric id (as a string): the key of the category_id filter.
    """
    id: ID!
    parentId: ID!
    name: String!
    """
    From the root down to the parent.
    """
    ancestors: [SupCategory!]!
    children: [SupCategory!]!
    """
    The full path slug (capacitors/tantalum-capacitors), as REST names categories.
    """
    path: String!
    """
    Always empty: attributes are not ranked per category.
    """
    relevantAttributes: [SupAttribute!]!
    """
    The category's description, when the taxonomy has one.
    """
    blurb: SupBlurb
    """
    Parts in this category and below (every lifecycle status).
    """
    numParts: Int!
  }

  type SupBlurb {
    name: String!
    pathName: String!
    description: String!
    content: String!
    metaDescription: String!
    metaTitle: String!
  }

  """
  An attribute (a kind of spec): the canonical one assigned to the stored spec name, or one named after it.
  """
  type SupAttribute {
    id: ID!
    name: String!
    """
    The key of filters, sort and specAggs.
    """
    shortname: String!
    """
    Technical, Physical, Electrical, Compliance or Other.
    """
    group: String!
    """
    number or text.
    """
    valueType: String!
    unitsName: String!
    unitsSymbol: String!
  }

  type SupAttributeGroup {
    name: String!
    attributes: [SupAttribute!]!
  }

  """
  A spec value of a part.
  """
  type SupSpec {
    attribute: SupAttribute!
    """
    The number in SI base units for a single number, else the value as written.
    """
    value: String!
    siValue: String!
    valueType: String!
    units: String!
    unitsName: String!
    unitsSymbol: String!
    """
    The value as the catalogue writes it (10kΩ, -40℃~+85℃).
    """
    displayValue: String!
  }

  type SupDocumentCollection {
    name: String!
    documents: [SupDocument!]!
  }

  type SupDocument {
    name: String!
    pageCount: Int
    createdAt: Time
    url: String!
    """
    The host the document is served from.
    """
    creditString: String!
    creditUrl: String!
    mimeType: String!
  }

  type SupDescription {
    text: String!
    """
    The source of the record (its source_id prefix) or this catalogue.
    """
    creditString: String!
    creditUrl: String!
  }

  type SupImage {
    urlLargest: String! @deprecated(reason: "use url")
    url55px: String! @deprecated(reason: "use url")
    url75px: String! @deprecated(reason: "use url")
    url90px: String! @deprecated(reason: "use url")
    url: String!
    creditString: String!
    creditUrl: String!
  }

  type SupPartSeries {
    id: ID!
    name: String!
    """
    The part's URL on this service (the catalogue has no series pages).
    """
    url: String!
  }

  type SupSponsoredPart {
    _cacheId: String!
    ppid: ID! @deprecated(reason: "use part.id")
    sourceId: ID! @deprecated(reason: "unused")
    part: SupPart!
    url: String!
  }

  type SupReferenceDesign {
    name: String!
    url: String!
  }

  type SupPartCad {
    addToLibraryUrl: String
    has3dModel: Boolean!
    hasAltium: Boolean!
    hasEagle: Boolean!
    hasOrcad: Boolean!
    hasKicad: Boolean!
    downloadUrlAltium: String!
    downloadUrlEagle: String!
    downloadUrlOrcad: String!
    downloadUrlKicad: String!
    footprintImageUrl: String
    symbolImageUrl: String
  }

  type SupCircuitMakerPartInfo {
    comments: Int!
    fabrications: Int!
    projects: Int!
    rates: Int!
    releases: Int!
  }

  type SupPartExtras {
    alternatives(first: Int! = 100): [SupPartExtras!]!
    partId: String!
    description: String
    isRohsCompliant: Boolean
    confidence: Float
    datasheetUrls: [String!]
    lifeCycle: SupPartLifeCycle!
    parameters: [SupPartExtrasParameter!]
    technicalDetails: [SupPartExtrasTechnicalDetail!] @deprecated(reason: "use parameters")
  }

  enum SupPartLifeCycle {
    UNKNOWN
    NEW
    ACTIVE
    NRFND
    EOL
    DISCONTINUED
    ACTIVE_UNCONFIRMED
    DISCONTINUED_UNCONFIRMED
    CONTACT_MFR
    TRANSFERRED
  }

  type SupPartExtrasParameter {
    name: String!
    unit: String
    value: [String!]
  }

  type SupPartExtrasTechnicalDetail {
    name: String!
    value: String!
  }

  """
  A price break. price is in the offer's currency; convertedPrice in the currency asked for when the configured rate table has it, else in the offer's (convertedCurrency says which).
  """
  type SupPricePoint {
    _cacheId: String!
    quantity: Int!
    price: Float!
    currency: String!
    convertedPrice: Float!
    convertedCurrency: String!
    conversionRate: Float!
  }

  """
  A distributor with offers for a part.
  """
  type SupPartSeller {
    _cacheId: String!
    company: SupCompany!
    """
    Null: offers are not per country.
    """
    country: String
    offers(priceBreaks: [Int!]): [SupOffer!]!
    """
    True: the catalogue holds the offers of the distributors its owner buys from, none from brokers.
    """
    isAuthorized: Boolean!
    isBroker: Boolean!
    isRfq: Boolean!
    shipsToCountries: [SupCountry!]!
  }

  type SupOffer {
    _cacheId: String!
    id: ID!
    sku: String!
    eligibleRegion: String
    inventoryLevel: Int!
    packaging: String
    moq: Int
    """
    The price breaks, by quantity; with priceBreaks, the price of an order of each of those quantities.
    """
    prices: [SupPricePoint!]!
    """
    The part's URL on this service (the catalogue holds no distributor links).
    """
    clickUrl: String!
    internalUrl: String!
    """
    When the catalogue's index version holding this offer was loaded.
    """
    updated: Time!
    factoryLeadDays: Int
    onOrderQuantity: Int
    factoryPackQuantity: Int
    orderMultiple: Int
    multipackQuantity: Int
    isCustomPricing: Boolean!
  }

  type SupCountry {
    name: String!
    countryCode: String!
    continentCode: String!
  }
`;
