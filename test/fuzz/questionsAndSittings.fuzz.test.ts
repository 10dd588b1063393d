import { fuzzEndpoints } from './endpointFuzz';
import { SHARDS } from './groups';

fuzzEndpoints('questions and sittings', SHARDS.questionsAndSittings);
