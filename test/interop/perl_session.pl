#!/usr/bin/perl
# Perl's RPC::XML::Client (Debian librpc-xml-perl) runs the core session of core-session.ts on
# /xmlrpc/2 and /xmlrpc (v1) against the gateway. RPC::XML declares encoding="us-ascii" but sends
# UTF-8 bytes; Odoo's expat refuses non-ASCII under that declaration, so the script records that
# fault, then sends the non-ASCII name with $RPC::XML::ENCODING = 'UTF-8' (what Perl users must do
# on Odoo too). Faults come back as RPC::XML::fault objects (not exceptions); only the faults of the
# fixed list are accepted, anything else dies. Prints one JSON document.
# Usage: perl_session.pl URL DB LOGIN PASSWORD KEY
use strict;
use warnings;
use utf8;
use JSON::PP;
use RPC::XML;
use RPC::XML::Client;

my ($url, $db, $login, $password, $key) = @ARGV;
my $json = JSON::PP->new->utf8->canonical;

# RPC::XML objects -> plain data for JSON; any type the session does not expect dies.
sub plain {
    my ($v) = @_;
    my $type = ref $v;
    return [ map { plain($_) } @{$v} ] if $type eq 'RPC::XML::array';
    return { map { ($_ => plain($v->{$_})) } keys %{$v} } if $type eq 'RPC::XML::struct' || $type eq 'RPC::XML::fault';
    return $v->value ? JSON::PP::true : JSON::PP::false if $type eq 'RPC::XML::boolean';
    return 0 + $v->value if $type =~ /^RPC::XML::(?:int|i4|i8|double)$/;
    return q{} . $v->value if $type eq 'RPC::XML::string';
    die "unexpected value type '$type'\n";
}

sub str { return RPC::XML::string->new($_[0]) }    # never let smart_encode guess a type for these
my $true = RPC::XML::boolean->new(1);

# send_request returns the answer object, an RPC::XML::fault, or an error string (transport).
sub request {
    my ($client, @args) = @_;
    my $res = $client->send_request(@args);
    die "transport error: $res\n" unless ref $res;
    return $res;
}
sub ok {
    my $res = request(@_);
    die 'unexpected fault: ' . $json->encode(plain($res)) . "\n" if $res->is_fault;
    return $res;
}
sub fault {
    my $res = request(@_);
    die 'expected a fault, got ' . $json->encode(plain($res)) . "\n" unless $res->is_fault;
    my $f = plain($res);
    return { class => ref $res, faultCode => $f->{faultCode}, faultString => $f->{faultString} };
}

sub session {
    my ($prefix, $tag) = @_;
    my $common = RPC::XML::Client->new("$url$prefix/common");
    my $object = RPC::XML::Client->new("$url$prefix/object");
    my %r;
    $r{version} = plain(ok($common, 'version'));
    my $uid = $r{uid} = plain(ok($common, 'authenticate', str($db), str($login), str($password), {}));
    $r{uid_key} = plain(ok($common, 'authenticate', str($db), str($login), str($key), {}));
    $r{auth_wrong} = plain(ok($common, 'authenticate', str($db), str($login), str('wrong-password'), {}));
    my $call = sub { my ($model, $method, $args, $kw) = @_; return ok($object, 'execute_kw', str($db), $uid, str($password), str($model), str($method), $args, $kw // {}) };
    my $companies = [ [ 'is_company', '=', $true ] ];

    $r{search} = plain($call->('res.partner', 'search', [$companies], { order => 'id' }));
    $r{count_key} = plain(ok($object, 'execute_kw', str($db), $uid, str($key), 'res.partner', 'search_count', [$companies], {}));
    my $search_read = $call->('res.partner', 'search_read', [$companies], { fields => [ 'name', 'credit_limit' ], limit => 3, order => 'id' });
    $r{search_read} = plain($search_read);
    $r{float_type} = ref $search_read->[0]{credit_limit};
    $r{read} = plain($call->('sale.order', 'read', [ [1], [ 'name', 'partner_id', 'date_order', 'validity_date', 'amount_total' ] ]));
    $r{binary} = plain($call->('res.partner', 'read', [ [13], ['image_128'] ]));
    $r{fields_get} = plain($call->('res.partner', 'fields_get', [ [ 'name', 'country_id', 'type', 'child_ids' ] ],
        { attributes => [ 'string', 'type', 'relation', 'relation_field', 'required', 'readonly', 'selection' ] }));
    $r{name_search} = plain($call->('res.partner', 'name_search', [ str('a'), $companies ], { limit => 3 }));

    my $name = "E2E Zo\x{eb} & <tag> ]]> \x{1F600} $tag";
    # the client's default: declared us-ascii, sent as UTF-8 bytes; Odoo's parser stops at the first one
    my $ascii_request = RPC::XML::request->new('execute_kw', str($db), $uid, str($password), str('res.partner.category'), str('create'), [ { name => str($name) } ], {});
    my $bytes = $ascii_request->as_string;
    utf8::encode($bytes);
    $bytes =~ /[\x80-\xff]/ or die "no non-ASCII byte in the request\n";
    $r{non_ascii_column} = $-[0];
    $r{non_ascii_fault} = fault($object, $ascii_request);
    my $id;
    {
        local $RPC::XML::ENCODING = 'UTF-8';
        $id = $r{create} = plain($call->('res.partner.category', 'create', [ { name => str($name) } ]));
        $r{write} = plain($call->('res.partner.category', 'write', [ [$id], { name => str("$name v2") } ]));
    }
    $r{ascii_markup} = plain($call->('res.partner.category', 'name_search', [ str('& <tag> ]]>') ]));
    $r{read_back} = plain($call->('res.partner.category', 'read', [ [$id], ['name'] ]));
    my $copy = $r{copy} = plain($call->('res.partner', 'copy', [ [13] ]));
    $r{copy_read} = plain($call->('res.partner', 'read', [ $copy, [ 'name', 'is_company' ] ]));
    $r{copy_unlink} = plain($call->('res.partner', 'unlink', [$copy]));
    $r{unlink} = plain($call->('res.partner.category', 'unlink', [ [$id] ]));
    $r{read_gone} = plain($call->('res.partner.category', 'read', [ [$id], ['name'] ]));

    my $order = $r{order_create} = plain($call->('sale.order', 'create',
        [ { partner_id => 9, date_order => RPC::XML::datetime_iso8601->new('20261015T10:30:00'), validity_date => str('2026-12-31') } ]));
    $r{order_read} = plain($call->('sale.order', 'read', [ [$order], [ 'partner_id', 'date_order', 'validity_date' ] ]));
    $r{order_unlink} = plain($call->('sale.order', 'unlink', [ [$order] ]));

    $r{faults} = {
        1 => fault($object, 'execute_kw', str($db), $uid, str($password), 'res.partner', 'search_count', [ [], 1, 2, 3 ], {}),
        2 => fault($object, 'execute_kw', str($db), $uid, str($password), 'no.such.model', 'search', [ [] ], {}),
        3 => fault($object, 'execute_kw', str($db), $uid, str('wrong-password'), 'res.partner', 'search', [ [] ], {}),
        4 => fault($object, 'execute_kw', str($db), $uid, str($password), 'res.partner', '_read', [ [1] ], {}),
    };
    return \%r;
}

my %out = (v2 => session('/xmlrpc/2', 'v2'), v1 => session('/xmlrpc', 'v1'));
print $json->encode(\%out), "\n";
