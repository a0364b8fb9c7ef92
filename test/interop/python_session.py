"""A scripted legacy session with Python's own xmlrpc.client (Odoo's reference client) and a raw
/jsonrpc client, against the gateway. Prints one JSON document with what each call returned or
raised; the vitest file asserts the exact values. Usage: python_session.py URL DB KEY"""
import json
import sys
import urllib.request
import xmlrpc.client

url, db, key = sys.argv[1], sys.argv[2], sys.argv[3]
out = {}


def fault(fn):
    try:
        fn()
    except xmlrpc.client.Fault as f:
        return {"type": type(f.faultCode).__name__, "code": f.faultCode, "last": f.faultString.rstrip("\n").split("\n")[-1]}
    return None


def session(prefix, tag):
    common = xmlrpc.client.ServerProxy(f"{url}{prefix}/common")
    models = xmlrpc.client.ServerProxy(f"{url}{prefix}/object")
    r = out[tag] = {}
    r["version"] = common.version()
    uid = r["uid"] = common.authenticate(db, "admin", key, {})
    call = lambda model, method, *args, **kw: models.execute_kw(db, uid, key, model, method, list(args), kw)
    r["search_read"] = call("res.partner", "search_read", [["is_company", "=", True]], fields=["name", "credit_limit"], limit=3, order="id")
    r["float_type"] = type(r["search_read"][0]["credit_limit"]).__name__
    r["read"] = call("res.partner", "read", [r["search_read"][0]["id"]], ["name", "country_id", "create_date"])
    name = "E2E & <tag> ]]> \U0001F600 " + tag
    new_id = r["create"] = call("res.partner.category", "create", {"name": name})
    r["write"] = call("res.partner.category", "write", [new_id], {"name": name + " v2"})
    r["read_back"] = call("res.partner.category", "read", [new_id], ["name"])
    r["unlink"] = call("res.partner.category", "unlink", [new_id])
    r["read_gone"] = call("res.partner.category", "read", [new_id], ["name"])
    r["fault_unknown_model"] = fault(lambda: call("no.such.model", "search", []))
    r["fault_private"] = fault(lambda: call("res.partner", "_read", [1]))
    r["fault_typeerror"] = fault(lambda: call("res.partner", "search_count", [], 1, 2, 3))
    r["fault_bad_key"] = fault(lambda: models.execute_kw(db, uid, "f" * 40, "res.partner", "search", [[]], {}))
    r["fault_missing"] = fault(lambda: call("res.partner.category", "write", [new_id], {"name": "x"}))


session("/xmlrpc/2", "v2")
session("/xmlrpc", "v1")


def jsonrpc(service, method, *args):
    body = json.dumps({"jsonrpc": "2.0", "method": "call", "params": {"service": service, "method": method, "args": list(args)}, "id": 42}).encode()
    req = urllib.request.Request(f"{url}/jsonrpc", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as resp:
        return json.loads(resp.read())


j = out["jsonrpc"] = {}
j["search_read"] = jsonrpc("object", "execute_kw", db, 2, key, "res.partner", "search_read", [[["is_company", "=", True]]], {"fields": ["name"], "limit": 2, "order": "id"})
j["create"] = jsonrpc("object", "execute_kw", db, 2, key, "res.partner.category", "create", [{"name": "E2E json"}])
cid = j["create"]["result"]
j["write"] = jsonrpc("object", "execute_kw", db, 2, key, "res.partner.category", "write", [[cid], {"name": "E2E json 2"}])
j["read"] = jsonrpc("object", "execute_kw", db, 2, key, "res.partner.category", "read", [[cid], ["name"]])
j["unlink"] = jsonrpc("object", "execute_kw", db, 2, key, "res.partner.category", "unlink", [[cid]])
j["fault_unknown_model"] = jsonrpc("object", "execute_kw", db, 2, key, "no.such.model", "search", [[]])
j["fault_bad_key"] = jsonrpc("object", "execute_kw", db, 2, "f" * 40, "res.partner", "search", [[]])
j["fault_typeerror"] = jsonrpc("object", "execute_kw", db, 2, key, "res.partner", "search_count", [[], 1, 2, 3])

print(json.dumps(out, default=str))
