// swagger-ui-dist ships no types: the few parts of its ES bundle the API reference page calls.
declare module 'swagger-ui-dist/swagger-ui-es-bundle.js' {
  interface SwaggerUI {
    preauthorizeApiKey(securityScheme: string, value: string): unknown;
    authActions: { logout(securitySchemes: string[]): void };
  }
  const SwaggerUIBundle: (options: Record<string, unknown>) => SwaggerUI;
  export default SwaggerUIBundle;
}
