# Ruby's XMLRPC::Client (Debian ruby-xmlrpc) runs the core session of core-session.ts on /xmlrpc/2
# and /xmlrpc (v1) against the gateway, with the library's defaults (nil parsing off: no answer may
# need it). Only the faults of the fixed list are rescued (XMLRPC::FaultException, precisely);
# anything else raises and exits non-zero. Prints one JSON document.
# Usage: ruby ruby_session.rb URL DB LOGIN PASSWORD KEY
require 'json'
require 'xmlrpc/client'

url, db, login, password, key = ARGV

# Runs a call that must fault; returns the exception's class, faultCode and faultString. On v1 the
# faultCode is a string (as on Odoo) and XMLRPC::Convert.fault raises a RuntimeError instead
# ("wrong fault-structure: ..."): that one is recorded with its message, any other RuntimeError raises.
def fault
  result = yield
  raise "expected a fault, got #{result.inspect}"
rescue XMLRPC::FaultException => e
  { 'class' => e.class.name, 'faultCode' => e.faultCode, 'faultString' => e.faultString, 'message' => e.message }
rescue RuntimeError => e
  raise unless e.instance_of?(RuntimeError) && e.message.start_with?('wrong fault-structure: ')

  { 'class' => e.class.name, 'message' => e.message }
end

def session(url, prefix, tag, db, login, password, key)
  common = XMLRPC::Client.new2("#{url}#{prefix}/common")
  object = XMLRPC::Client.new2("#{url}#{prefix}/object")
  r = {}
  r['nil_parser'] = XMLRPC::Config::ENABLE_NIL_PARSER
  r['version'] = common.call('version')
  uid = r['uid'] = common.call('authenticate', db, login, password, {})
  r['uid_key'] = common.call('authenticate', db, login, key, {})
  r['auth_wrong'] = common.call('authenticate', db, login, 'wrong-password', {})
  call = ->(model, method, args, kwargs = {}) { object.call('execute_kw', db, uid, password, model, method, args, kwargs) }
  companies = [['is_company', '=', true]]

  r['search'] = call.('res.partner', 'search', [companies], { 'order' => 'id' })
  r['count_key'] = object.call('execute_kw', db, uid, key, 'res.partner', 'search_count', [companies], {})
  r['search_read'] = call.('res.partner', 'search_read', [companies], { 'fields' => %w[name credit_limit], 'limit' => 3, 'order' => 'id' })
  r['float_type'] = r['search_read'][0]['credit_limit'].class.name
  r['read'] = call.('sale.order', 'read', [[1], %w[name partner_id date_order validity_date amount_total]])
  r['binary'] = call.('res.partner', 'read', [[13], ['image_128']])
  r['fields_get'] = call.('res.partner', 'fields_get', [%w[name country_id type child_ids]],
                          { 'attributes' => %w[string type relation relation_field required readonly selection] })
  r['name_search'] = call.('res.partner', 'name_search', ['a', companies], { 'limit' => 3 })

  name = "E2E Zo\u00eb & <tag> ]]> \u{1F600} #{tag}"
  id = r['create'] = call.('res.partner.category', 'create', [{ 'name' => name }])
  r['write'] = call.('res.partner.category', 'write', [[id], { 'name' => "#{name} v2" }])
  r['read_back'] = call.('res.partner.category', 'read', [[id], ['name']])
  copy = r['copy'] = call.('res.partner', 'copy', [[13]])
  r['copy_read'] = call.('res.partner', 'read', [copy, %w[name is_company]])
  r['copy_unlink'] = call.('res.partner', 'unlink', [copy])
  r['unlink'] = call.('res.partner.category', 'unlink', [[id]])
  r['read_gone'] = call.('res.partner.category', 'read', [[id], ['name']])

  # a Time in UTC: XMLRPC::Create writes <dateTime.iso8601>20261015T10:30:00</dateTime.iso8601>
  order = r['order_create'] = call.('sale.order', 'create', [{ 'partner_id' => 9, 'date_order' => Time.utc(2026, 10, 15, 10, 30, 0), 'validity_date' => '2026-12-31' }])
  r['order_read'] = call.('sale.order', 'read', [[order], %w[partner_id date_order validity_date]])
  r['order_unlink'] = call.('sale.order', 'unlink', [[order]])

  r['faults'] = {
    '1' => fault { call.('res.partner', 'search_count', [[], 1, 2, 3]) },
    '2' => fault { call.('no.such.model', 'search', [[]]) },
    '3' => fault { object.call('execute_kw', db, uid, 'wrong-password', 'res.partner', 'search', [[]], {}) },
    '4' => fault { call.('res.partner', '_read', [[1]]) }
  }
  r
end

out = {
  'v2' => session(url, '/xmlrpc/2', 'v2', db, login, password, key),
  'v1' => session(url, '/xmlrpc', 'v1', db, login, password, key)
}
puts JSON.generate(out)
