// The GraphQL explorer's start-up, run by the browser (served as /graphql/assets/explorer.js): GraphiQL
// against this origin's /graphql. The API key (or access token) goes in the Headers tab; GraphiQL keeps
// it in the browser's storage. A `query` in the page's URL opens in the editor.
/* global window, document, URLSearchParams, React, ReactDOM, GraphiQL */
(function start() {
  const params = new URLSearchParams(window.location.search);
  const example = [
    '# Paste your key in the Headers tab below: {"Authorization": "Bearer psk_..."}',
    'query FindPart {',
    '  supSearchMpn(q: "LM358", limit: 5) {',
    '    hits',
    '    results {',
    '      part {',
    '        mpn',
    '        manufacturer { name }',
    '        shortDescription',
    '        specs { attribute { shortname } displayValue }',
    '        sellers { company { name } offers { sku inventoryLevel prices { quantity price currency } } }',
    '      }',
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');
  const fetcher = GraphiQL.createFetcher({ url: `${window.location.origin}/graphql` });
  const props = {
    fetcher,
    defaultQuery: example,
    defaultHeaders: JSON.stringify({ Authorization: 'Bearer <API key or access token>' }, null, 2),
    defaultEditorToolsVisibility: 'headers',
    isHeadersEditorEnabled: true,
    shouldPersistHeaders: true,
  };
  if (params.get('query')) props.query = params.get('query');
  if (params.get('variables')) props.variables = params.get('variables');
  ReactDOM.createRoot(document.getElementById('graphiql')).render(React.createElement(GraphiQL, props));
})();
