# An HTTP/1.0 client (Python's http.client speaking HTTP/1.0, as Python 2's xmlrpclib and PHP's
# stream wrapper do) asks for db.dump in XML-RPC and JSON-RPC and prints what it decoded.
# Usage: python3 http10_dump.py URL DB
import base64, http.client, json, sys, urllib.parse, xmlrpc.client

url, db = sys.argv[1], sys.argv[2]
parts = urllib.parse.urlsplit(url)


class Http10(http.client.HTTPConnection):
    _http_vsn = 10
    _http_vsn_str = "HTTP/1.0"


def post(path, body, content_type):
    conn = Http10(parts.hostname, parts.port, timeout=60)
    conn.request("POST", path, body, {"Content-Type": content_type})
    res = conn.getresponse()
    data = res.read()
    framing = res.getheader("transfer-encoding") or ("length" if res.getheader("content-length") else "close")
    conn.close()
    return data, framing


out = {}
body, framing = post("/xmlrpc/2/db", xmlrpc.client.dumps(("admin", db, "zip"), "dump"), "text/xml")
(dump,), _ = xmlrpc.client.loads(body)
raw = base64.b64decode(dump, validate=True)
out["xmlrpc"] = {"framing": framing, "bytes": len(raw), "magic": raw[:2].decode("latin1")}
body, framing = post("/jsonrpc", json.dumps({"jsonrpc": "2.0", "method": "call", "params": {"service": "db", "method": "dump", "args": ["admin", db, "zip"]}, "id": 1}), "application/json")
raw = base64.b64decode(json.loads(body)["result"], validate=True)
out["jsonrpc"] = {"framing": framing, "bytes": len(raw), "magic": raw[:2].decode("latin1")}
print(json.dumps(out))
