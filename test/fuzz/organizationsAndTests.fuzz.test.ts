import { fuzzEndpoints } from './endpointFuzz';
import { SHARDS } from './groups';

fuzzEndpoints('organizations and tests', SHARDS.organizationsAndTests);
