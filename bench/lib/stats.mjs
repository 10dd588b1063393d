// @ts-check
// Nearest-rank percentiles: with n < 100 samples p99 is the slowest sample.
export function percentile(sortedValues, p) {
  if (sortedValues.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sortedValues.length));
  return sortedValues[Math.min(rank, sortedValues.length) - 1];
}

const round = (x, digits = 1) => (x === null ? null : Number(x.toFixed(digits)));

export function latencySummary(msValues) {
  const sorted = [...msValues].sort((a, b) => a - b);
  const mean = sorted.length ? sorted.reduce((s, x) => s + x, 0) / sorted.length : null;
  return {
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    min: round(sorted[0] ?? null),
    max: round(sorted.at(-1) ?? null),
    mean: round(mean),
  };
}

/** Median (lower, so always an observed value), min and max of one cost counter. */
function counterSummary(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const median = percentile(sorted, 50);
  return { median, min: sorted[0], max: sorted.at(-1), varies: sorted[0] !== sorted.at(-1) };
}

/** Everything the report needs from one endpoint's samples ({status, ms, cost}). */
export function summarize(samples, expectedStatus) {
  const statuses = {};
  for (const s of samples) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
  const withCost = samples.filter((s) => s.cost);
  const cost = {};
  for (const key of ['reads', 'writes', 'round_trips', 'sequential_round_trips', 'auth_calls'])
    cost[key] = counterSummary(withCost.map((s) => s.cost[key]));
  const unexpected = samples.filter((s) => s.status !== expectedStatus);
  return {
    n: samples.length,
    expected_status: expectedStatus,
    latency_ms: latencySummary(samples.map((s) => s.ms)),
    cost,
    cost_header_missing: samples.length - withCost.length,
    statuses,
    unexpected: unexpected.length,
    unexpected_examples: unexpected
      .slice(0, 3)
      .map((s) => ({ status: s.status, body: (s.error ?? s.text ?? '').slice(0, 300) })),
  };
}
