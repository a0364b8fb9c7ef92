/**
 * Shadow mode: after the gateway's answer to a sampled, allowlisted legacy call is on
 * its way, the client's own body is sent to the upstream's own legacy endpoint (same path) and the
 * two answers are compared with the project's typed equality. A difference is checked once more
 * (both sides asked again) to rule out a concurrent write and kept only if it persists; one an
 * intended deviation of COMPATIBILITY.md describes counts as intended. Results go to the metrics and
 * the migration report; the body is never logged or stored. The client's answer, status and
 * latency never depend on any of it: nothing here runs before the answer is sent, and when the
 * bound on shadow calls in flight is full the shadow is dropped and counted.
 */
import type { CallOrigin, Dialect } from '../../call.ts';
import type { Logger } from '../../log.ts';
import type { ShadowDifference, ShadowOutcome } from '../../report/migration-report.ts';
import type { LegacyEndpointClient } from '../../upstream/index.ts';
import type { CallOutcome, WireResponse } from '../../wire/response.ts';
import { copyAnswer } from './answer-copy.ts';
import { viewAnswer, type AnswerView } from './answer-view.ts';
import { gatewayAnswerOf, judgeAnswers, type HttpAnswer } from './compare-answers.ts';
import { intendedDeviations, type IntendedDeviation } from './intended.ts';
import { createBound } from './bound.ts';
import { createGoneServices, goneReason, type GoneService } from './legacy-gone.ts';
import { isRefusedLogin, mayShadow } from './policy.ts';
import { redactDifferences, renderAnswer, secretsOf } from './redact.ts';

/** Largest answer (either side) shadow mode compares; beyond it the shadow is an error. */
export const maxCompareBytes = 8 * 1024 * 1024;

/** The operator's settings (`--shadow-sample`, `--shadow-max-in-flight`, `--shadow-methods`). */
export interface ShadowSettings {
  /** Percent of allowlisted calls shadowed, 0–100. */
  samplePercent: number;
  maxInFlight: number;
  /** The allowlist (`policy.ts`). */
  methods: readonly string[];
}

/** One shadow result, for metrics and the report. */
export interface ShadowResult {
  userAgent: string;
  ip: string;
  call: CallOutcome;
  outcome: ShadowOutcome;
  /** For `intended`: the COMPATIBILITY.md section. */
  deviation?: string;
  /** For `differs`: both answers and the comparison's messages, redacted. */
  difference?: ShadowDifference;
}

/** A finished legacy call, offered to shadow mode. */
export interface ShadowExchange {
  dialect: Dialect;
  /** The path the client posted to (`/xmlrpc/2/object`, `/jsonrpc`). */
  path: string;
  /** The client's Content-Type header. */
  contentType: string | undefined;
  /** The client's own body: sent to the legacy endpoint, never logged or stored. */
  body: Uint8Array;
  origin: CallOrigin;
  /** The call's outcome as the access log heard it; known once the answer is complete. */
  outcome: () => CallOutcome | undefined;
  /** The gateway's answer. */
  answer: WireResponse;
  /** The gateway's answer to the same body once more, uncounted (the re-check). */
  replay: () => Promise<WireResponse>;
}

export interface ShadowDeps {
  settings: ShadowSettings;
  client: LegacyEndpointClient;
  log: Logger;
  onResult: (result: ShadowResult) => void;
  /** Sampling's coin; tests fix it. */
  random?: () => number;
  intended?: readonly IntendedDeviation[];
  now?: () => number;
}

/** Shadow mode, built once per gateway. */
export interface Shadow {
  /**
   * Offers a finished call. Returns the answer to send (a streamed one wrapped so a copy is kept);
   * `whenSent` must run its callback once the answer is out.
   */
  offer(exchange: ShadowExchange, whenSent: (run: () => void) => void): WireResponse;
  /** The services found without legacy endpoints. */
  gone(): GoneService[];
  /** Shadow calls in flight now. */
  readonly inFlight: number;
  /** Resolves once no shadow is in flight. */
  idle(): Promise<void>;
  /** Waits for the shadows in flight, then closes the legacy pool. */
  close(): Promise<void>;
}

const decoder = new TextDecoder();

/** Creates shadow mode. */
export function createShadow(deps: ShadowDeps): Shadow {
  const { settings, client, log, onResult } = deps;
  const random = deps.random ?? Math.random;
  const allowlist = new Set(settings.methods);
  const deviations = deps.intended ?? intendedDeviations();
  const gone = createGoneServices(log, deps.now);
  const bound = createBound(settings.maxInFlight);

  function report(
    exchange: ShadowExchange,
    call: CallOutcome,
    outcome: ShadowOutcome,
    extra: Pick<ShadowResult, 'deviation' | 'difference'> = {},
  ): void {
    onResult({ userAgent: exchange.origin.userAgent, ip: exchange.origin.ip, call, outcome, ...extra });
  }

  async function askLegacy(exchange: ShadowExchange): Promise<HttpAnswer | Error> {
    const { userAgent, ip, host, proto, requestId } = exchange.origin;
    try {
      const answer = await client.post(exchange.path, exchange.body, exchange.contentType, { userAgent, ip, host, proto, requestId });
      if (answer.text === undefined) return new Error(`the legacy answer is larger than ${maxCompareBytes} bytes`);
      return { status: answer.status, contentType: answer.contentType, body: answer.text };
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  }

  const askGateway = (exchange: ShadowExchange) => gatewayAnswerOf(() => exchange.replay(), maxCompareBytes);
  /** Compares one pair: equal, intended (with the deviation), or the differences. */
  const judge = (exchange: ShadowExchange, call: CallOutcome, gateway: HttpAnswer, legacy: HttpAnswer, legacyView: AnswerView) =>
    judgeAnswers(deviations, exchange.dialect, { service: call.service, method: call.method }, gateway, legacy, legacyView);

  async function run(exchange: ShadowExchange, copy: Promise<{ text: string } | { tooLarge: true } | undefined>): Promise<void> {
    const answer = await copy;
    const call = exchange.outcome();
    // an answer cut short (the client went away), or a call the policy refuses once its outcome is known
    if (answer === undefined || call === undefined || !mayShadow(call, allowlist) || gone.has(call.service)) return;
    if ('tooLarge' in answer) return report(exchange, call, 'error');
    const gateway: HttpAnswer = { status: exchange.answer.status, contentType: exchange.answer.contentType, body: answer.text };
    if (isRefusedLogin(call, viewAnswer(exchange.dialect, gateway.body))) return;

    const legacy = await askLegacy(exchange);
    if (legacy instanceof Error) {
      log.debug({ requestId: exchange.origin.requestId, service: call.service, error: legacy.message }, 'shadow call failed');
      return report(exchange, call, 'error');
    }
    const legacyView = viewAnswer(exchange.dialect, legacy.body);
    const goneWhy = goneReason(call.service, exchange.path, legacy.status, legacyView);
    if (goneWhy !== undefined) return gone.mark(call.service, goneWhy);
    if (legacyView.kind === 'other') {
      log.debug(
        { requestId: exchange.origin.requestId, service: call.service, status: legacy.status },
        'shadow call: the legacy endpoint answered no legacy answer',
      );
      return report(exchange, call, 'error');
    }
    const first = judge(exchange, call, gateway, legacy, legacyView);
    if ('equal' in first) return report(exchange, call, 'equal');
    if ('deviation' in first) return report(exchange, call, 'intended', { deviation: first.deviation });

    // a concurrent write can make two answers moments apart differ: ask both sides again, together
    const [gateway2, legacy2] = await Promise.all([askGateway(exchange), askLegacy(exchange)]);
    if (gateway2 instanceof Error || legacy2 instanceof Error) return report(exchange, call, 'error');
    const legacyView2 = viewAnswer(exchange.dialect, legacy2.body);
    const second = judge(exchange, call, gateway2, legacy2, legacyView2);
    if ('equal' in second) {
      log.debug({ requestId: exchange.origin.requestId, service: call.service }, 'shadow difference did not persist on the re-check');
      return report(exchange, call, 'equal');
    }
    if ('deviation' in second) return report(exchange, call, 'intended', { deviation: second.deviation });
    const secrets = secretsOf(exchange.dialect, decoder.decode(exchange.body), call.service);
    const difference: ShadowDifference = {
      at: new Date(deps.now?.() ?? Date.now()).toISOString(),
      dialect: exchange.dialect,
      differences: redactDifferences(second.differences, secrets),
      gateway: renderAnswer(exchange.dialect, gateway2.status, gateway2.body, secrets),
      legacy: renderAnswer(exchange.dialect, legacy2.status, legacy2.body, secrets),
    };
    log.info(
      {
        requestId: exchange.origin.requestId,
        service: call.service,
        method: call.modelMethod ?? call.method,
        differences: second.differences.length,
      },
      'shadow: the legacy endpoint answered differently, twice',
    );
    report(exchange, call, 'differs', { difference });
  }

  return {
    offer(exchange, whenSent) {
      const known = exchange.outcome();
      // whole answers: their outcome is known now, so most calls cost one look-up here
      if (known !== undefined && (!mayShadow(known, allowlist) || gone.has(known.service))) return exchange.answer;
      if (random() * 100 >= settings.samplePercent) return exchange.answer;
      if (!bound.take()) {
        if (known !== undefined) report(exchange, known, 'dropped');
        return exchange.answer;
      }
      const copy = copyAnswer(exchange.answer, maxCompareBytes);
      whenSent(() => {
        run({ ...exchange, answer: copy.response }, copy.text)
          .catch((err: unknown) => log.warn({ error: (err as Error).message }, 'shadow comparison failed'))
          .finally(() => bound.release());
      });
      return copy.response;
    },
    gone: () => gone.list(),
    get inFlight() {
      return bound.inFlight;
    },
    idle: () => bound.idle(),
    async close() {
      await bound.idle();
      await client.close();
    },
  };
}
