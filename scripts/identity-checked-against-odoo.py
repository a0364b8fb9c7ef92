#!/usr/bin/env python3
"""Item 1 of issue 45 against a real Odoo 19.0: every (model, method) of
src/legacy/identity-checked.generated.ts, called natively (Odoo's own legacy endpoints) and through
the gateway, in XML-RPC v2, XML-RPC v1 and JSON-RPC, with a few argument shapes; prints each
difference and the counts. Usage: identity-checked-against-odoo.py <odoo-url> <gateway-url> <db>
(admin/admin, uid 2; nothing runs: every call is refused)."""
import json, re, sys, urllib.request, xmlrpc.client as x

odoo, gateway, db = sys.argv[1:4]
src = open('src/legacy/identity-checked.generated.ts', encoding='utf8').read()
table = json.loads(re.search(r'identityCheckedMethods[^=]*= (\{.*?\n\});', src, re.S).group(1))
pairs = [(m, f) for m, fs in table.items() for f in fs]
asserting = json.loads(re.search(r'requestAssertingMethods[^=]*= (\{.*?\n\});', src, re.S).group(1))
pairs += [(m, f) for m, fs in asserting.items() for f in fs]
shapes = [([[1]], {}), ([[1], 'x'], {'y': 2}), ([], {}), ([[1]], {'context': {'lang': 'en_US'}}), ([[1]], {'context': 5})]

def last_line(text):
    lines = [l for l in str(text).strip().split('\n') if l.strip()]
    return lines[-1] if lines else ''

def xml(url, path, model, method, args, kw):
    try:
        return ('ok', repr(x.ServerProxy(url + path, allow_none=True).execute_kw(db, 2, 'admin', model, method, args, kw)))
    except x.Fault as f:
        return (repr(f.faultCode) if isinstance(f.faultCode, int) else last_line(f.faultCode), last_line(f.faultString))

def jsonrpc(url, model, method, args, kw):
    body = {'jsonrpc': '2.0', 'method': 'call', 'id': 1,
            'params': {'service': 'object', 'method': 'execute_kw', 'args': [db, 2, 'admin', model, method, args, kw]}}
    req = urllib.request.Request(url + '/jsonrpc', json.dumps(body).encode(), {'Content-Type': 'application/json'})
    answer = json.loads(urllib.request.urlopen(req).read())
    if 'error' in answer:
        d = answer['error']['data']
        return (d['name'], d['message'])
    return ('ok', repr(answer['result']))

x.ServerProxy(gateway + '/xmlrpc/2/common').login(db, 'admin', 'admin')
counts = {'equal': 0, 'different': 0}
outcomes = {}
for model, method in pairs:
    for args, kw in shapes:
        for dialect in ('xmlrpc2', 'xmlrpc1', 'jsonrpc'):
            run = (lambda u: jsonrpc(u, model, method, args, kw)) if dialect == 'jsonrpc' else \
                (lambda u: xml(u, '/xmlrpc/2/object' if dialect == 'xmlrpc2' else '/xmlrpc/object', model, method, args, kw))
            native, through = run(odoo), run(gateway)
            if native == through:
                counts['equal'] += 1
                kind = ('refused' if 'HTTP' in native[1] or 'HTTP' in native[0] else native[1][:60])
                outcomes[kind] = outcomes.get(kind, 0) + 1
            else:
                counts['different'] += 1
                print(f'DIFF {dialect} {model}.{method} {args!r} {kw!r}\n  odoo:    {native}\n  gateway: {through}')
print(json.dumps(outcomes, ensure_ascii=False, indent=1))
print(f'{len(pairs)} pairs x {len(shapes)} shapes x 3 dialects: {counts}')
