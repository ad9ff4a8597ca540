// Package listing owns what every list endpoint of the cloud API shares: the page request
// (ParsePage), the response envelope (Paginate, Envelope) and the X-Filter header (ParseFilter,
// Filter). It is written once, generically, so that every resource pages, filters and sorts
// exactly alike and a client such as linodego sees one behaviour everywhere.
//
// A resource declares its filterable fields as Fields — name to accessor — and nothing else; the
// filter is compiled once per request by ParseFilter and then matched per item without parsing.
// Errors are *kit.Error values with status 400, rendered by the cloud API's error renderer.
package listing
