"""OdooRPC 0.9.0 (Debian python3-odoorpc) runs a fixed session through the gateway: its ODOO()
constructor asks /web/webclient/version_info, login() posts /web/session/authenticate (both passed
through to Odoo), and every model call goes to /jsonrpc object.execute / execute_kw with the
password (minted into an API key by the gateway). Prints one JSON document; only the RPCError of the
fixed list is caught (odoorpc.error.RPCError, precisely), anything else crashes the script.
Its login() cannot take an API key: Odoo's web login refuses keys (interactive), so does the gateway.
Usage: odoorpc_session.py URL DB LOGIN PASSWORD KEY"""
import json
import sys
import urllib.parse

import odoorpc

url, db, login, password, key = sys.argv[1:6]
parts = urllib.parse.urlsplit(url)
out = {"odoorpc": odoorpc.__version__}

odoo = odoorpc.ODOO(parts.hostname, port=parts.port)
out["version"] = odoo.version
try:
    odoo.login(db, login, key)
    raise AssertionError("login() with an API key succeeded")
except odoorpc.error.RPCError as e:
    out["key_login"] = {"class": f"{type(e).__module__}.{type(e).__name__}", "message": str(e), "name": e.info["data"]["name"]}
odoo.login(db, login, password)
out["uid"] = odoo.env.uid
out["context"] = odoo.env.context

out["in_env"] = {"res.partner": "res.partner" in odoo.env, "no.such.model": "no.such.model" in odoo.env}  # ir.model.search
Partner = odoo.env["res.partner"]
out["has_fields"] = sorted(f for f in ("name", "country_id", "child_ids", "credit_limit") if f in Partner._columns)
ids = out["search"] = Partner.search([("is_company", "=", True)], order="id")
out["read"] = Partner.read(ids[:3], ["name", "country_id"])
records = Partner.browse(ids[:3])
out["browse"] = [{"id": p.id, "name": p.name, "country": p.country_id.name, "credit_limit": p.credit_limit} for p in records]
out["float_type"] = type(records[0].credit_limit).__name__

lightsup = Partner.browse(13)
lightsup.write({"name": "LightsUp & <odoorpc> \U0001F600"})
out["write_read"] = Partner.read([13], ["name"])
lightsup.name = "LightsUp"  # odoorpc writes on assignment
out["assign_read"] = Partner.read([13], ["name"])

user = odoo.env.user
out["user"] = {"id": user.id, "name": user.name, "login": user.login, "company": user.company_id.name}

# env.ref: ir.model.data.check_object_reference(module, name, True), positional (built-in table)
admin_user = odoo.env.ref("base.user_admin")
out["ref"] = {"model": admin_user._name, "ids": admin_user.ids, "login": admin_user.login}
# a record method with positional arguments the built-in table lacks: discovered with this
# session's own key (the user is in the Technical Documentation group)
out["positional"] = Partner.browse(3).action_gateway_demo("from odoorpc", True)

try:
    odoo.execute("no.such.model", "search", [])
    raise AssertionError("expected an RPCError")
except odoorpc.error.RPCError as e:
    out["error"] = {"class": f"{type(e).__module__}.{type(e).__name__}", "message": str(e), "name": e.info["data"]["name"], "code": e.info["code"]}

print(json.dumps(out))
