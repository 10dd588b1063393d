import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';

// Routes register themselves here as they are defined, so the document can
// never list an endpoint that is not mounted, or miss one that is.
export const registry = new OpenAPIRegistry();

registry.registerComponent('securitySchemes', 'bearerAuth', {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'Firebase ID token',
  description: 'An ID token from Firebase Authentication (email/password or anonymous sign-in)',
});
