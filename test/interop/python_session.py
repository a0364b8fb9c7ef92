"""Python's xmlrpc.client (Odoo's reference client) runs the core session of core-session.ts on
/xmlrpc/2 and /xmlrpc (v1), then a raw /jsonrpc client a short one, against the gateway. Prints one
JSON document with what each call returned or raised; the vitest file asserts the exact values.
Only the faults of the fixed list are caught (xmlrpc.client.Fault, precisely); anything else
crashes the script. Usage: python_session.py URL DB LOGIN PASSWORD KEY"""
import datetime
import json
import sys
import urllib.request
import xmlrpc.client

url, db, login, password, key = sys.argv[1:6]
out = {}


def fault(fn):
    """Runs a call that must fault; returns the exception's class, faultCode and faultString."""
    try:
        result = fn()
    except xmlrpc.client.Fault as f:
        return {"class": type(f).__name__, "faultCode": f.faultCode, "faultString": f.faultString, "message": str(f)}
    raise AssertionError(f"expected a Fault, got {result!r}")


def session(prefix, tag):
    common = xmlrpc.client.ServerProxy(f"{url}{prefix}/common")
    models = xmlrpc.client.ServerProxy(f"{url}{prefix}/object")
    r = out[tag] = {}
    r["version"] = common.version()
    uid = r["uid"] = common.authenticate(db, login, password, {})
    r["uid_key"] = common.authenticate(db, login, key, {})
    r["auth_wrong"] = common.authenticate(db, login, "wrong-password", {})

    def call(model, method, *args, **kw):
        return models.execute_kw(db, uid, password, model, method, list(args), kw)

    companies = [["is_company", "=", True]]
    r["search"] = call("res.partner", "search", companies, order="id")
    r["count_key"] = models.execute_kw(db, uid, key, "res.partner", "search_count", [companies], {})
    r["search_read"] = call("res.partner", "search_read", companies, fields=["name", "credit_limit"], limit=3, order="id")
    r["float_type"] = type(r["search_read"][0]["credit_limit"]).__name__
    r["read"] = call("sale.order", "read", [1], ["name", "partner_id", "date_order", "validity_date", "amount_total"])
    r["binary"] = call("res.partner", "read", [13], ["image_128"])
    r["fields_get"] = call("res.partner", "fields_get", ["name", "country_id", "type", "child_ids"],
                           attributes=["string", "type", "relation", "relation_field", "required", "readonly", "selection"])
    r["name_search"] = call("res.partner", "name_search", "a", companies, limit=3)

    name = "E2E Zo\u00eb & <tag> ]]> \U0001F600 " + tag
    new_id = r["create"] = call("res.partner.category", "create", {"name": name})
    r["write"] = call("res.partner.category", "write", [new_id], {"name": name + " v2"})
    r["read_back"] = call("res.partner.category", "read", [new_id], ["name"])
    r["copy"] = call("res.partner", "copy", [13])
    r["copy_read"] = call("res.partner", "read", r["copy"], ["name", "is_company"])
    r["copy_unlink"] = call("res.partner", "unlink", r["copy"])
    r["unlink"] = call("res.partner.category", "unlink", [new_id])
    r["read_gone"] = call("res.partner.category", "read", [new_id], ["name"])

    # a naive datetime object: xmlrpc.client sends <dateTime.iso8601>20261015T10:30:00</dateTime.iso8601>
    order = r["order_create"] = call("sale.order", "create", {"partner_id": 9, "date_order": datetime.datetime(2026, 10, 15, 10, 30), "validity_date": "2026-12-31"})
    r["order_read"] = call("sale.order", "read", [order], ["partner_id", "date_order", "validity_date"])
    r["order_unlink"] = call("sale.order", "unlink", [order])

    r["faults"] = {
        "1": fault(lambda: call("res.partner", "search_count", [], 1, 2, 3)),
        "2": fault(lambda: call("no.such.model", "search", [])),
        "3": fault(lambda: models.execute_kw(db, uid, "wrong-password", "res.partner", "search", [[]], {})),
        "4": fault(lambda: call("res.partner", "_read", [1])),
    }


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

print(json.dumps(out))
