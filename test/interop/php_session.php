<?php
// PHP's xmlrpc_encode_request / xmlrpc_decode (Debian php-xmlrpc, the PECL extension) run the core
// session of core-session.ts on /xmlrpc/2 and /xmlrpc (v1) against the gateway, with Ripcord's
// options (encoding utf-8, markup escaping; the Odoo docs' PHP client) and decoding to UTF-8. Empty
// PHP arrays go out as <array><data/></array>: every empty kwargs and user_agent_env is one. Then the
// extension's defaults (iso-8859-1, every byte above 127 escaped) with a non-ASCII name. Faults come
// back as arrays (xmlrpc_is_fault), not exceptions; only those of the fixed list are accepted,
// anything else throws. Prints one JSON document.
// Usage: php php_session.php URL DB LOGIN PASSWORD KEY

[, $url, $db, $login, $password, $key] = $argv;
const RIPCORD = ['encoding' => 'utf-8', 'escaping' => 'markup'];

function post(string $endpoint, string $body): string
{
    $context = stream_context_create(['http' => ['method' => 'POST', 'header' => "Content-Type: text/xml\r\n", 'content' => $body, 'ignore_errors' => true]]);
    $answer = file_get_contents($endpoint, false, $context);
    if ($answer === false || !str_contains($http_response_header[0] ?? '', ' 200 ')) {
        throw new RuntimeException("HTTP failure on $endpoint: " . ($http_response_header[0] ?? 'no answer'));
    }
    return $answer;
}

/** Sends one call; returns the decoded answer, fault arrays included. */
function request(string $endpoint, string $method, array $params, ?array $options = RIPCORD)
{
    $body = $options === null ? xmlrpc_encode_request($method, $params) : xmlrpc_encode_request($method, $params, $options);
    return xmlrpc_decode(post($endpoint, $body), 'utf-8');
}

function ok(string $endpoint, string $method, array $params, ?array $options = RIPCORD)
{
    $answer = request($endpoint, $method, $params, $options);
    if (is_array($answer) && xmlrpc_is_fault($answer)) {
        throw new RuntimeException("unexpected fault: " . json_encode($answer));
    }
    return $answer;
}

function fault(string $endpoint, string $method, array $params): array
{
    $answer = request($endpoint, $method, $params);
    if (!is_array($answer) || !xmlrpc_is_fault($answer)) {
        throw new RuntimeException("expected a fault, got " . json_encode($answer));
    }
    return ['class' => gettype($answer) . ' (xmlrpc_is_fault)', 'faultCode' => $answer['faultCode'], 'faultString' => $answer['faultString']];
}

function datetime(string $iso): object
{
    xmlrpc_set_type($iso, 'datetime');
    return $iso;
}

function session(string $prefix, string $tag): array
{
    global $url, $db, $login, $password, $key;
    $common = "$url$prefix/common";
    $object = "$url$prefix/object";
    $r = [];
    $r['version'] = ok($common, 'version', []);
    $uid = $r['uid'] = ok($common, 'authenticate', [$db, $login, $password, []]);
    $r['uid_key'] = ok($common, 'authenticate', [$db, $login, $key, []]);
    $r['auth_wrong'] = ok($common, 'authenticate', [$db, $login, 'wrong-password', []]);
    $call = fn(string $model, string $method, array $args, array $kwargs = []) => ok($object, 'execute_kw', [$db, $uid, $password, $model, $method, $args, $kwargs]);
    $companies = [['is_company', '=', true]];

    $r['search'] = $call('res.partner', 'search', [$companies], ['order' => 'id']);
    $r['count_key'] = ok($object, 'execute_kw', [$db, $uid, $key, 'res.partner', 'search_count', [$companies], []]);
    $r['search_read'] = $call('res.partner', 'search_read', [$companies], ['fields' => ['name', 'credit_limit'], 'limit' => 3, 'order' => 'id']);
    $r['float_type'] = gettype($r['search_read'][0]['credit_limit']);
    $r['read'] = $call('sale.order', 'read', [[1], ['name', 'partner_id', 'date_order', 'validity_date', 'amount_total']]);
    $r['binary'] = $call('res.partner', 'read', [[13], ['image_128']]);
    $r['fields_get'] = $call('res.partner', 'fields_get', [['name', 'country_id', 'type', 'child_ids']],
        ['attributes' => ['string', 'type', 'relation', 'relation_field', 'required', 'readonly', 'selection']]);
    $r['name_search'] = $call('res.partner', 'name_search', ['a', $companies], ['limit' => 3]);

    $name = "E2E Zo\u{eb} & <tag> ]]> \u{1F600} $tag";
    $id = $r['create'] = $call('res.partner.category', 'create', [['name' => $name]]);
    $r['write'] = $call('res.partner.category', 'write', [[$id], ['name' => "$name v2"]]);
    $r['read_back'] = $call('res.partner.category', 'read', [[$id], ['name']]);
    $copy = $r['copy'] = $call('res.partner', 'copy', [[13]]);
    $r['copy_read'] = $call('res.partner', 'read', [$copy, ['name', 'is_company']]);
    $r['copy_unlink'] = $call('res.partner', 'unlink', [$copy]);
    $r['unlink'] = $call('res.partner.category', 'unlink', [[$id]]);
    $r['read_gone'] = $call('res.partner.category', 'read', [[$id], ['name']]);

    $order = $r['order_create'] = $call('sale.order', 'create', [['partner_id' => 9, 'date_order' => datetime('20261015T10:30:00'), 'validity_date' => '2026-12-31']]);
    $r['order_read'] = $call('sale.order', 'read', [[$order], ['partner_id', 'date_order', 'validity_date']]);
    $r['order_unlink'] = $call('sale.order', 'unlink', [[$order]]);

    // the extension's defaults: encoding="iso-8859-1", each UTF-8 byte above 127 sent as its own &#NNN;
    $latin1 = ok($object, 'execute_kw', [$db, $uid, $password, 'res.partner.category', 'create', [['name' => "PHP Zo\u{eb} $tag"]], []], null);
    $r['defaults_read'] = $call('res.partner.category', 'read', [[$latin1], ['name']]);
    $r['defaults_unlink'] = $call('res.partner.category', 'unlink', [[$latin1]]);

    $r['faults'] = [
        '1' => fault($object, 'execute_kw', [$db, $uid, $password, 'res.partner', 'search_count', [[], 1, 2, 3], []]),
        '2' => fault($object, 'execute_kw', [$db, $uid, $password, 'no.such.model', 'search', [[]], []]),
        '3' => fault($object, 'execute_kw', [$db, $uid, 'wrong-password', 'res.partner', 'search', [[]], []]),
        '4' => fault($object, 'execute_kw', [$db, $uid, $password, 'res.partner', '_read', [[1]], []]),
    ];
    return $r;
}

echo json_encode(['v2' => session('/xmlrpc/2', 'v2'), 'v1' => session('/xmlrpc', 'v1')], JSON_THROW_ON_ERROR | JSON_UNESCAPED_UNICODE | JSON_PRESERVE_ZERO_FRACTION), "\n";
