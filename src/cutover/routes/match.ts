/**
 * Which rule serves a call: the first rule of the routes file whose every selector matches, else
 * `--default-mode`. A selector needs its fact: a rule naming a login does not match a call whose
 * login is unknown (docs/cutover.md says which calls carry one).
 */
import { BlockList, isIP } from 'node:net';
import type { RouteMode, RouteRule } from './routes-file.ts';

/** What routing knows about a call before it is served. */
export interface CallFacts {
  service: string;
  /** `model.method` for object calls, `service.method` otherwise. */
  method: string;
  database?: string | undefined;
  login?: string | undefined;
  userAgent: string;
  ip: string;
}

/** The route a call takes. */
export interface Route {
  mode: RouteMode;
  /** The rule's name; undefined for `--default-mode`. */
  rule: string | undefined;
}

/** A compiled set of rules: one snapshot, never changed (a reload compiles a new one). */
export interface Routes {
  readonly rules: readonly RouteRule[];
  readonly defaultMode: RouteMode;
  select(facts: CallFacts): Route;
}

/** `*` matches any run of characters; the rest is literal. */
function glob(patterns: readonly string[]): (value: string) => boolean {
  const exact = new Set(patterns.filter((p) => !p.includes('*')));
  const wild = patterns.filter((p) => p.includes('*')).map((p) => new RegExp(`^${p.split('*').map(escapeRegex).join('.*')}$`, 's'));
  return (value) => exact.has(value) || wild.some((r) => r.test(value));
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A client address without the IPv4-mapped prefix. */
function plainAddress(ip: string): string {
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}

function sources(list: readonly string[]): (ip: string) => boolean {
  const blocks = new BlockList();
  for (const s of list) {
    const [address = '', prefix] = s.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) blocks.addAddress(address, type);
    else blocks.addSubnet(address, Number(prefix), type);
  }
  return (ip) => {
    const plain = plainAddress(ip);
    const family = isIP(plain);
    return family !== 0 && blocks.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  };
}

type Test = (facts: CallFacts) => boolean;

function compileRule(rule: RouteRule): Test {
  const tests: Test[] = [];
  const m = rule.match;
  if (m.service !== undefined) {
    const services = new Set(m.service);
    tests.push((f) => services.has(f.service));
  }
  if (m.method !== undefined) {
    const matches = glob(m.method);
    tests.push((f) => matches(f.method));
  }
  if (m.database !== undefined) {
    const matches = glob(m.database);
    tests.push((f) => f.database !== undefined && matches(f.database));
  }
  if (m.login !== undefined) {
    const matches = glob(m.login);
    tests.push((f) => f.login !== undefined && matches(f.login));
  }
  if (m.userAgent !== undefined) {
    const pattern = new RegExp(m.userAgent);
    tests.push((f) => pattern.test(f.userAgent));
  }
  if (m.source !== undefined) {
    const within = sources(m.source);
    tests.push((f) => within(f.ip));
  }
  return (facts) => tests.every((t) => t(facts));
}

/** Compiles `rules` (validated by `routes-file.ts`). */
export function compileRoutes(rules: readonly RouteRule[], defaultMode: RouteMode): Routes {
  const compiled = rules.map((rule) => ({ rule, test: compileRule(rule) }));
  return {
    rules,
    defaultMode,
    select(facts) {
      for (const { rule, test } of compiled) if (test(facts)) return { mode: rule.mode, rule: rule.name };
      return { mode: defaultMode, rule: undefined };
    },
  };
}
