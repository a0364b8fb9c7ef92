<?php
// PHP's http stream wrapper (file_get_contents) speaking HTTP/1.0 (its default before PHP 8.0, and
// what Ripcord-era clients set) asks for db.dump over XML-RPC and decodes it with the xmlrpc
// extension. Prints one JSON document.
// Usage: php http10_dump.php URL DB
[, $url, $db] = $argv;
$body = xmlrpc_encode_request('dump', ['admin', $db, 'zip'], ['encoding' => 'utf-8', 'escaping' => 'markup']);
$context = stream_context_create(['http' => ['method' => 'POST', 'header' => "Content-Type: text/xml\r\n", 'content' => $body, 'ignore_errors' => true, 'protocol_version' => 1.0]]);
$answer = file_get_contents("$url/xmlrpc/2/db", false, $context);
$chunked = false;
foreach ($http_response_header as $line) if (stripos($line, 'transfer-encoding: chunked') === 0) $chunked = true;
$dump = xmlrpc_decode($answer, 'utf-8');
$raw = is_string($dump) ? base64_decode($dump, true) : false;
echo json_encode(['php' => ['chunked' => $chunked, 'bytes' => $raw === false ? 0 : strlen($raw), 'magic' => $raw === false ? '' : substr($raw, 0, 2)]]);
