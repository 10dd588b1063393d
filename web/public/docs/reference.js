// Renders the document the service itself serves, so this page can never describe another API.
window.SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#api-reference',
  deepLinking: true,
  tryItOutEnabled: false,
});
