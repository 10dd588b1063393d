import { fuzzEndpoints } from './endpointFuzz';
import { SHARDS } from './groups';

fuzzEndpoints('people and integrations', SHARDS.peopleAndIntegrations);
