"""The client of `npm run bench:odoo` (bench/odoo.ts): what legacy integrations are, a Python process.

Reads a JSON plan on standard input and prints one JSON document on standard output.

  {"mode": "sequence", "rounds": N, "paths": [PATH...], "call": CALL}
      concurrency 1, round-robin: each round calls every path once, in the given order (rotated
      each round so no path always follows the same one). Prints {"calls": [[path index, ms], ...]}
      in the order the calls were made.
  {"mode": "throughput", "seconds": S, "blocks": B, "concurrency": C, "paths": [PATH...], "call": CALL}
      C worker processes; the paths take turns in blocks of S seconds, B rounds. Prints
      {"blocks": [[path index, calls, seconds], ...]}.

PATH: {"kind": "xmlrpc", "url": ".../xmlrpc/2/object", "db", "uid", "password"}
   or {"kind": "json2", "url": "http://host:port", "db", "key"}
CALL: {"model", "method", "domain", "fields", "limit"} — the same call in both dialects.
"""
import http.client
import json
import multiprocessing
import sys
import time
import urllib.parse
import xmlrpc.client


def caller(path, call):
    """A function making one call on `path`, reusing its connection where the server keeps it."""
    if path['kind'] == 'xmlrpc':
        proxy = xmlrpc.client.ServerProxy(path['url'])
        kwargs = {'fields': call['fields']}
        if call.get('limit'):
            kwargs['limit'] = call['limit']
        args = (path['db'], path['uid'], path['password'], call['model'], call['method'], [call['domain']], kwargs)

        def one():
            return proxy.execute_kw(*args)
        return one
    parsed = urllib.parse.urlsplit(path['url'])
    body = {'domain': call['domain'], 'fields': call['fields']}
    if call.get('limit'):
        body['limit'] = call['limit']
    data = json.dumps(body).encode()
    headers = {'Content-Type': 'application/json', 'Authorization': 'bearer ' + path['key'], 'X-Odoo-Database': path['db']}
    target = '/json/2/%s/%s' % (call['model'], call['method'])
    conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=120)

    def one():
        try:
            conn.request('POST', target, data, headers)
            response = conn.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            conn.close()  # a server that closed the kept connection: once more on a new one
            conn.request('POST', target, data, headers)
            response = conn.getresponse()
        payload = response.read()
        if response.status != 200:
            raise RuntimeError('HTTP %d from %s: %s' % (response.status, path['url'], payload[:200]))
        if response.getheader('connection', '').lower() == 'close':
            conn.close()
        return json.loads(payload)
    return one


def sequence(plan):
    calls = [caller(p, plan['call']) for p in plan['paths']]
    order = list(range(len(calls)))
    out = []
    for r in range(plan['rounds']):
        turn = order[r % len(order):] + order[:r % len(order)]
        for i in turn:
            start = time.perf_counter()
            calls[i]()
            out.append([i, (time.perf_counter() - start) * 1000])
    return {'calls': out}


def worker(args):
    path, call, seconds = args
    one = caller(path, call)
    n = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        one()
        n += 1
    return n


def throughput(plan):
    out = []
    with multiprocessing.Pool(plan['concurrency']) as pool:
        for b in range(plan['blocks']):
            for i, path in enumerate(plan['paths']):
                start = time.perf_counter()
                counts = pool.map(worker, [(path, plan['call'], plan['seconds'])] * plan['concurrency'])
                out.append([i, sum(counts), time.perf_counter() - start])
    return {'blocks': out}


if __name__ == '__main__':
    plan = json.load(sys.stdin)
    result = sequence(plan) if plan['mode'] == 'sequence' else throughput(plan)
    json.dump(result, sys.stdout)
