import { defineBoolean, defineInt, defineList, defineString } from 'firebase-functions/params';
import type { Param } from 'firebase-functions/params';

// Every tunable limit is a firebase-functions param: production takes the
// defaults (or a deploy-time value), the emulators read functions/.env.<project>.

/**
 * Makes `param.value()` its documented default when its variable is not set.
 * The Firebase CLI writes every param's value (its default included) into the
 * environment when it deploys or emulates; anywhere else (the Functions
 * Framework, Cloud Run without the CLI) the SDK reads an unset int as 0, an
 * unset boolean as false and an unset list by JSON-parsing `undefined` (it
 * throws). Every param below is defined through this, so every reader, here or
 * elsewhere (outbound/loopback.ts), gets the default.
 */
function defaulted<T extends string | number | boolean | string[], P extends Param<T>>(param: P): P {
  const fallback = param.options.default;
  if (fallback === undefined || (typeof fallback === 'object' && !Array.isArray(fallback)))
    throw new Error(`Param ${param.name} needs a literal default`);
  const read = param.value.bind(param);
  param.value = () => {
    const raw = process.env[param.name];
    return raw === undefined || raw.trim() === '' ? (fallback as T) : read();
  };
  return param;
}

export const params = {
  ratePerMinute: defaulted(
    defineInt('RATE_LIMIT_PER_MINUTE', {
      default: 100,
      description: 'Requests per minute per client IP',
    }),
  ),
  sensitivePerMinute: defaulted(
    defineInt('RATE_LIMIT_SENSITIVE_PER_MINUTE', {
      default: 10,
      description: 'Sensitive operations per minute per signed-in user (per IP without one)',
    }),
  ),
  authFailuresPerMinute: defaulted(
    defineInt('AUTH_FAILURES_PER_MINUTE', {
      default: 10,
      description: 'Failed authentications from one IP in a minute before that IP gets 429',
    }),
  ),
  authFailuresPerNetworkAddressPerMinute: defaulted(
    defineInt('AUTH_FAILURES_PER_NETWORK_ADDRESS_PER_MINUTE', {
      default: 200,
      description:
        'Failed authentications and refused credentials without an identity, from one address inside a registered organization network, in a minute before that address gets 429 (a hall shares it)',
    }),
  ),
  trustedProxyHops: defaulted(
    defineInt('TRUSTED_PROXY_HOPS', {
      default: 1,
      description: 'How many X-Forwarded-For entries, counted from the right, were added by trusted proxies',
    }),
  ),
  trustedProxyRanges: defaulted(
    defineList('TRUSTED_PROXY_RANGES', {
      default: [],
      description:
        'CIDR ranges of proxies in front of the function that append to X-Forwarded-For beyond the counted hops (e.g. the Hosting edge); see docs/security.md',
    }),
  ),
  maxInstances: defaulted(
    defineInt('MAX_INSTANCES', {
      default: 20,
      description:
        'Most instances of the api function at once: the cost ceiling of a flood (each serves up to CONCURRENCY requests at a time)',
    }),
  ),
  // Raised before a large sitting (docs/operations.md): warm instances meet the synchronized start
  // instead of cold ones, and each serves more requests at once.
  minInstances: defaulted(
    defineInt('MIN_INSTANCES', {
      default: 0,
      description:
        'Instances of the api function kept warm even when idle (billed while idle); raise before a large sitting',
    }),
  ),
  concurrency: defaulted(
    defineInt('CONCURRENCY', {
      default: 80,
      description:
        'Requests one instance of the api function serves at once (Cloud Run allows 1 to 1000; above 1 needs a whole CPU)',
    }),
  ),
  corsOrigins: defaulted(
    defineList('CORS_ORIGINS', {
      default: [],
      description: 'Browser origins allowed to call the API cross-origin (same-origin Hosting needs none)',
    }),
  ),
  maxJsonBodyKb: defaulted(
    defineInt('MAX_JSON_BODY_KB', {
      default: 256,
      description: 'Largest JSON request body accepted, in KiB',
    }),
  ),
  // Read where a URL is checked or connected to (outbound/loopback.ts), not through RuntimeConfig: the delivery runs without the app.
  allowLoopbackUrls: defaulted(
    defineBoolean('ALLOW_LOOPBACK_URLS', {
      default: false,
      description:
        'Receiver and platform URLs may be http on a loopback address (127.0.0.1, localhost): the emulators only; never in production',
    }),
  ),
  // Read where a Safe Exam Browser request's URL is rebuilt (http/sebRequest.ts), not through RuntimeConfig.
  publicBaseUrl: defaulted(
    defineString('PUBLIC_BASE_URL', {
      default: '',
      description:
        'The public origin takers reach the API at (e.g. https://exams.example.org): the URL Safe Exam Browser hashes. Unset: the scheme and host Hosting forwards',
    }),
  ),
  exposeCostHeader: defaulted(
    defineBoolean('EXPOSE_COST_HEADER', {
      default: false,
      description:
        'Adds X-Debug-Cost (Firestore reads/writes/round trips per request); for the emulator and benchmarks',
    }),
  ),
};

export interface RuntimeConfig {
  ratePerMinute: number;
  sensitivePerMinute: number;
  authFailuresPerMinute: number;
  authFailuresPerNetworkAddressPerMinute: number;
  trustedProxyHops: number;
  trustedProxyRanges: string[];
  corsOrigins: string[];
  maxJsonBodyBytes: number;
  exposeCostHeader: boolean;
}

// Params are only readable at run time, not while the module loads for deploy.
export function readConfig(): RuntimeConfig {
  return {
    ratePerMinute: params.ratePerMinute.value(),
    sensitivePerMinute: params.sensitivePerMinute.value(),
    authFailuresPerMinute: params.authFailuresPerMinute.value(),
    authFailuresPerNetworkAddressPerMinute: params.authFailuresPerNetworkAddressPerMinute.value(),
    trustedProxyHops: params.trustedProxyHops.value(),
    trustedProxyRanges: params.trustedProxyRanges.value().filter((r) => r.length > 0),
    corsOrigins: params.corsOrigins.value().filter((o) => o.length > 0),
    maxJsonBodyBytes: params.maxJsonBodyKb.value() * 1024,
    exposeCostHeader: params.exposeCostHeader.value(),
  };
}
