/**
 * The `verify` route's side work. Odoo's own legacy endpoint has answered the client already; once
 * that answer is out, a sampled call is checked on a bounded pool of its own (dropped and counted
 * when full, never delaying a client):
 *
 * - a call that only reads (shadow mode's allowlist, `policy.ts`; and a login Odoo accepted) is
 *   translated by the gateway as `translate` would serve it and the two answers are compared with
 *   shadow mode's typed equality — a difference is checked once more (both sides asked again) and
 *   kept only if it persists, redacted as shadow mode keeps it;
 * - an `object` call that can change state ran once, natively: it is never sent again. Only its
 *   binding is checked (positional → named, nothing sent), and the JSON-2 body it binds to recorded.
 *
 * Everything else (the `db` functions that write, calls Odoo refused as AccessDenied) is not checked.
 */
import { isPasswordLogin } from '../../legacy/surface.ts';
import type { Dialect } from '../../call.ts';
import type { Logger } from '../../log.ts';
import type { ShadowDifference, ShadowOutcome } from '../../report/migration-report.ts';
import type { CallOutcome, WireResponse } from '../../wire/response.ts';
import { viewAnswer, type AnswerView } from '../shadow/answer-view.ts';
import { createBound } from '../shadow/bound.ts';
import { gatewayAnswerOf, judgeAnswers, type HttpAnswer } from '../shadow/compare-answers.ts';
import { intendedDeviations, type IntendedDeviation } from '../shadow/intended.ts';
import { mayShadow } from '../shadow/policy.ts';
import { redactDifferences, redactText, renderAnswer, secretsOf } from '../shadow/redact.ts';
import { maxCompareBytes } from '../shadow/shadow.ts';

/** `--verify-sample`, `--verify-max-in-flight`, and the read-only list (`--shadow-methods`). */
export interface VerifySettings {
  samplePercent: number;
  maxInFlight: number;
  methods: readonly string[];
}

/** A call Odoo answered natively under `verify`, offered once its answer is built. */
export interface VerifyExchange {
  dialect: Dialect;
  /** The client's own body (never logged or stored). */
  body: Uint8Array;
  origin: { userAgent: string; ip: string; requestId: string };
  /** The call as Odoo's answer tells its outcome. */
  call: CallOutcome;
  /** Odoo's answer, the one the client got. */
  legacy: HttpAnswer;
  /** The gateway's own answer to the same body (translated, uncounted). */
  translate: () => Promise<WireResponse>;
  /** Odoo's legacy endpoint asked again (the re-check of a difference). */
  askLegacy: () => Promise<HttpAnswer | Error>;
  /** An object call's binding: the JSON-2 placeholder body, or the fault binding gave; nothing is sent. */
  bind: () => Promise<{ json2Body: string } | { fault: string }>;
}

/** One verify result, for the metrics and the report. */
export interface VerifyResult {
  userAgent: string;
  ip: string;
  call: CallOutcome;
  outcome: ShadowOutcome;
  deviation?: string;
  difference?: ShadowDifference;
  json2Body?: string;
}

export interface VerifierDeps {
  settings: VerifySettings;
  log: Logger;
  onResult: (result: VerifyResult) => void;
  random?: () => number;
  intended?: readonly IntendedDeviation[];
  now?: () => number;
}

export interface Verifier {
  /** Offers a natively answered call; `whenSent` runs the check once the client's answer is out. */
  offer(exchange: VerifyExchange, whenSent: (run: () => void) => void): void;
  readonly inFlight: number;
  idle(): Promise<void>;
}

/** What `verify` does with a call: compare it, check its binding, or nothing. */
export function verifyKind(call: CallOutcome, legacy: AnswerView, allowlist: ReadonlySet<string>): 'compare' | 'bind' | undefined {
  if (legacy.kind === 'fault' && legacy.accessDenied) return undefined;
  if (isPasswordLogin(call.service, call.method))
    // a login Odoo refused is never tried again: a second failed attempt feeds its login cooldown
    return legacy.kind === 'result' && legacy.value !== false ? 'compare' : undefined;
  if (mayShadow(call, allowlist)) return 'compare';
  if (call.service === 'object' && call.modelMethod !== undefined) return 'bind';
  return undefined;
}

const decoder = new TextDecoder();

export function createVerifier(deps: VerifierDeps): Verifier {
  const { settings, log, onResult } = deps;
  const random = deps.random ?? Math.random;
  const allowlist = new Set(settings.methods);
  const deviations = deps.intended ?? intendedDeviations();
  const bound = createBound(settings.maxInFlight);

  const report = (x: VerifyExchange, outcome: ShadowOutcome, extra: Partial<VerifyResult> = {}) =>
    onResult({ userAgent: x.origin.userAgent, ip: x.origin.ip, call: x.call, outcome, ...extra });

  const gatewayAnswer = (x: VerifyExchange) => gatewayAnswerOf(() => x.translate(), maxCompareBytes);
  const judge = (x: VerifyExchange, gateway: HttpAnswer, legacy: HttpAnswer) =>
    judgeAnswers(deviations, x.dialect, { service: x.call.service, method: x.call.method }, gateway, legacy);

  async function compare(x: VerifyExchange): Promise<void> {
    const gateway = await gatewayAnswer(x);
    if (gateway instanceof Error) return report(x, 'error');
    const first = judge(x, gateway, x.legacy);
    if ('equal' in first) return report(x, 'equal');
    if ('deviation' in first) return report(x, 'intended', { deviation: first.deviation });
    // a concurrent write can make two answers moments apart differ: ask both sides again, together
    const [gateway2, legacy2] = await Promise.all([gatewayAnswer(x), x.askLegacy()]);
    if (gateway2 instanceof Error || legacy2 instanceof Error) return report(x, 'error');
    const second = judge(x, gateway2, legacy2);
    if ('equal' in second) return report(x, 'equal');
    if ('deviation' in second) return report(x, 'intended', { deviation: second.deviation });
    const secrets = secretsOf(x.dialect, decoder.decode(x.body), x.call.service);
    log.info(
      {
        requestId: x.origin.requestId,
        service: x.call.service,
        method: x.call.modelMethod ?? x.call.method,
        differences: second.differences.length,
      },
      'verify: the gateway translated the call to a different answer, twice',
    );
    report(x, 'differs', {
      difference: {
        at: new Date(deps.now?.() ?? Date.now()).toISOString(),
        dialect: x.dialect,
        differences: redactDifferences(second.differences, secrets),
        gateway: renderAnswer(x.dialect, gateway2.status, gateway2.body, secrets),
        legacy: renderAnswer(x.dialect, legacy2.status, legacy2.body, secrets),
      },
    });
  }

  async function checkBinding(x: VerifyExchange, legacy: AnswerView): Promise<void> {
    const bound = await x.bind();
    if ('json2Body' in bound) return report(x, 'bound', { json2Body: bound.json2Body });
    // Odoo refused the call too: nothing to tell from the binding alone
    if (legacy.kind !== 'result') return report(x, 'error');
    const fault = redactText(bound.fault, secretsOf(x.dialect, decoder.decode(x.body), x.call.service));
    report(x, 'differs', {
      difference: {
        at: new Date(deps.now?.() ?? Date.now()).toISOString(),
        dialect: x.dialect,
        differences: [`binding: the gateway could not bind the call (${fault}); Odoo ran it`],
        gateway: fault,
        legacy: '(a result; not kept: the call can change state)',
      },
    });
  }

  return {
    offer(x, whenSent) {
      const legacy = viewAnswer(x.dialect, x.legacy.body);
      const kind = verifyKind(x.call, legacy, allowlist);
      if (kind === undefined) return;
      if (random() * 100 >= settings.samplePercent) return;
      if (!bound.take()) return report(x, 'dropped');
      whenSent(() => {
        (kind === 'compare' ? compare(x) : checkBinding(x, legacy))
          .catch((err: unknown) => log.warn({ error: (err as Error).message }, 'verify check failed'))
          .finally(() => bound.release());
      });
    },
    get inFlight() {
      return bound.inFlight;
    },
    idle: () => bound.idle(),
  };
}
