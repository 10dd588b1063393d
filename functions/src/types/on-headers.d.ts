declare module 'on-headers' {
  import type { ServerResponse } from 'node:http';
  function onHeaders(res: ServerResponse, listener: () => void): void;
  export = onHeaders;
}
