/**
 * The series dashboards expect beside the call counters: `build_info` (which version runs), whether
 * the upstream answers and why not, passthrough latency, and requests the gateway refused by its
 * own policy (login throttle, --max-connections, --max-body). Every label takes its value from a
 * fixed set.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { gatewayVersion } from '../build-info.ts';
import type { LegacyErrorKind } from '../errors.ts';
import type { CallOutcome } from '../wire/response.ts';
import { statusClassLabel } from './labels.ts';

const prefix = 'legacy_rpc_gateway_';
/** Seconds until an answer's headers, from a cached asset (a few ms) to a long report (Odoo's `limit_time_real`, up to 600 s). */
const passthroughBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

/** Why the upstream counts as down. */
export const upstreamDownReasons = ['timeout', 'unreachable', 'bad_answer'] as const;
export type UpstreamDownReason = (typeof upstreamDownReasons)[number];

/** The upstream's state as one check found it: up, or down with its reason. */
export type UpstreamState = { up: true } | { up: false; reason: UpstreamDownReason };

/** The reason a failed upstream check gives, from the error kind it raised. */
export function downReasonOf(kind: LegacyErrorKind): UpstreamDownReason {
  if (kind === 'upstream_timeout') return 'timeout';
  if (kind === 'upstream_unavailable') return 'unreachable';
  return 'bad_answer';
}

/** The gateway's own refusals, by the setting or mechanism that refused. */
export const refusalPolicies = ['login_throttle', 'max_connections', 'max_body'] as const;
export type RefusalPolicy = (typeof refusalPolicies)[number];

/** The error name a body over `--max-body` is answered with (`server/app.ts`). */
const bodyTooLargeName = 'werkzeug.exceptions.RequestEntityTooLarge';

export interface OperatorMetrics {
  /** Checks the upstream at each scrape (`GET /web/health`, as `/readyz` does) for `upstream_up`. */
  trackUpstream(check: () => Promise<UpstreamState>): void;
  /** One passthrough answer: its status (`undefined`: no answer) and the seconds until its headers. */
  observePassthrough(status: number | undefined, seconds: number): void;
  /** One refusal by the gateway's own policy. */
  refused(policy: RefusalPolicy): void;
  /** Hears every finished legacy call (a body over --max-body is a policy refusal). */
  observeCall(outcome: CallOutcome): void;
}

export function createOperatorMetrics(registers: Registry[]): OperatorMetrics {
  const buildInfo = new Gauge({
    name: `${prefix}build_info`,
    help: 'Always 1; the labels say which gateway version runs on which Node.js.',
    labelNames: ['version', 'nodejs_version'] as const,
    registers,
  });
  buildInfo.set({ version: gatewayVersion, nodejs_version: process.versions.node }, 1);

  let check: (() => Promise<UpstreamState>) | undefined;
  // one check per scrape: upstream_up (collected first) starts it, upstream_down reads its result
  let scrape: Promise<UpstreamState> | undefined;
  new Gauge({
    name: `${prefix}upstream_up`,
    help: 'Whether the upstream answers its health route (GET /web/health) at this scrape: 1 up, 0 down (upstream_down says why).',
    registers,
    async collect() {
      if (check === undefined) return;
      scrape = check();
      this.set((await scrape).up ? 1 : 0);
    },
  });
  const down = new Gauge({
    name: `${prefix}upstream_down`,
    help: 'Why the upstream counts as down at this scrape: 1 for the reason (timeout, unreachable, bad_answer), 0 for the others; all 0 while it is up.',
    labelNames: ['reason'] as const,
    registers,
    async collect() {
      const pending = scrape ?? check?.();
      if (pending === undefined) return;
      const state = await pending;
      for (const reason of upstreamDownReasons) this.set({ reason }, !state.up && state.reason === reason ? 1 : 0);
    },
  });
  for (const reason of upstreamDownReasons) down.set({ reason }, 0);
  const passthroughSeconds = new Histogram({
    name: `${prefix}passthrough_duration_seconds`,
    help: "Passed-through requests: seconds from forwarding to the upstream answer's headers, by status class (error: no answer).",
    labelNames: ['status'] as const,
    buckets: passthroughBuckets,
    registers,
  });
  const refusals = new Counter({
    name: `${prefix}policy_refusals_total`,
    help: 'Requests the gateway refused by its own policy: login_throttle (--throttle-*), max_connections (--max-connections), max_body (--max-body).',
    labelNames: ['policy'] as const,
    registers,
  });
  for (const policy of refusalPolicies) refusals.inc({ policy }, 0);

  return {
    trackUpstream(upstreamCheck) {
      check = upstreamCheck;
    },
    observePassthrough(status, seconds) {
      passthroughSeconds.observe({ status: statusClassLabel(status) }, seconds);
    },
    refused(policy) {
      refusals.inc({ policy });
    },
    observeCall(outcome) {
      if (outcome.error?.name === bodyTooLargeName) refusals.inc({ policy: 'max_body' });
    },
  };
}
