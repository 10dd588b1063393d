// Front door of openapi/: the OpenAPI document, built from the routes; /health and /openapi.json.
// What other folders may use; nothing else of this folder is imported from outside.
export { openApiRoutes } from './routes';
