// Package buildstore keeps the build service's records in the data file: persons, groups and
// tokens; projects, packages and their metas with their history; source blobs, revisions,
// uploads and the expansions of link trees; requests and reviews, comments, messages, tags,
// attributes, issue trackers and issues; the instance's configuration and status messages;
// the build farm's statuses, binaries, logs and published trees; signing keys and statistics.
//
// For each record it holds the key layout, the secondary indexes kept in step with it in the
// same transaction (roles, requests, links, issues, published names, …) and the codecs of
// what it stores (the _link document, a binary's dependencies, the names a key may hold).
// The build service's rules are not here: which tree a link expands to, which issues a tree
// names, who may read or write what, whether a signing key can sign are buildsvc's (and the
// packages' built on it), which call these functions inside the transactions they open.
// Every function takes the transaction it works in. Of this module, the package imports
// store alone (layout_test.go).
package buildstore
