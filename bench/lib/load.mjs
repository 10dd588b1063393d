// @ts-check
import { performance } from 'node:perf_hooks';
import { call } from './http.mjs';
import { latencySummary, summarize } from './stats.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * Warm-up. The Functions emulator serves one request per worker process and
 * starts a new process whenever none is idle, so 20 users arriving at once
 * would mostly measure 20 cold starts on a small machine. Users therefore join
 * one at a time, each after the previous one's first answer, and then all run
 * together for `settleMs`. Bounded by `timeoutMs`. Unexpected statuses count.
 */
async function rampUp(users, workload, { settleMs, timeoutMs }) {
  const started = performance.now();
  const deadline = started + timeoutMs;
  const errors = [];
  let stop = false;
  let requests = 0;
  const loops = [];
  const loop = async (user, index, joined) => {
    try {
      for (let i = index; !stop && performance.now() < deadline; i++) {
        const step = workload[i % workload.length];
        const res = await call({ path: step.path, token: user.token, ip: user.ip, timeoutMs: 60_000 });
        requests++;
        if (res.status !== step.expected)
          errors.push({ endpoint: step.name, status: res.status, body: (res.error ?? res.text).slice(0, 300) });
        joined();
      }
    } finally {
      joined();
    }
  };
  let joinedUsers = 0;
  for (const [index, user] of users.entries()) {
    if (performance.now() >= deadline) break;
    await new Promise((resolve) => loops.push(loop(user, index, resolve)));
    joinedUsers++;
  }
  await sleep(Math.min(settleMs, deadline - performance.now()));
  stop = true;
  await Promise.all(loops);
  return { seconds: Number(((performance.now() - started) / 1000).toFixed(1)), requests, joinedUsers, errors };
}

/**
 * Closed-loop load: every virtual user sends its next request as soon as the
 * previous one is answered, cycling through `workload`, until `durationMs` has
 * passed or `maxRequests` have been sent in all. Each virtual user has its own
 * token and its own client address.
 */
async function drive({ users, workload, durationMs, maxRequests, record }) {
  const started = performance.now();
  const deadline = started + durationMs;
  let sent = 0;
  let lastDone = started;
  const vu = async (user, index) => {
    for (let i = index; performance.now() < deadline && sent < maxRequests; i++) {
      sent++;
      const step = workload[i % workload.length];
      const res = await call({ path: step.path, token: user.token, ip: user.ip, timeoutMs: 30_000 });
      lastDone = performance.now();
      record(step, res);
    }
  };
  await Promise.all(users.map(vu));
  return { elapsedMs: lastDone - started, sent };
}

export async function runLoad({ users, workload, durationMs, settleMs, rampTimeoutMs, maxRequests }) {
  const warmup = await rampUp(users, workload, { settleMs, timeoutMs: rampTimeoutMs });

  const samples = new Map(workload.map((step) => [step.name, []]));
  const all = [];
  const { elapsedMs, sent } = await drive({
    users,
    workload,
    durationMs,
    maxRequests,
    record: (step, res) => {
      const sample = { status: res.status, ms: res.ms, cost: res.cost, text: res.text, error: res.error };
      samples.get(step.name).push(sample);
      all.push({ ...sample, expected: step.expected });
    },
  });

  const perEndpoint = workload.map((step) => ({
    endpoint: step.name,
    ...summarize(samples.get(step.name), step.expected),
  }));
  const errors = all.filter((s) => s.status !== s.expected).length;
  return {
    virtual_users: users.length,
    duration_s: Number((elapsedMs / 1000).toFixed(2)),
    warmup: {
      seconds: warmup.seconds,
      requests: warmup.requests,
      users_joined: warmup.joinedUsers,
      errors: warmup.errors.length,
      error_examples: warmup.errors.slice(0, 3),
    },
    requests: all.length,
    requests_cap: maxRequests,
    cap_reached: sent >= maxRequests,
    throughput_rps: Number((all.length / (elapsedMs / 1000)).toFixed(1)),
    latency_ms: latencySummary(all.map((s) => s.ms)),
    errors,
    per_endpoint: perEndpoint,
  };
}
