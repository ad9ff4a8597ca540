// Package sqlengine serves the MySQL wire protocol for the appliance's sqldb instances, so a
// client can connect to the database the cloud API created: one go-mysql-server engine per
// running instance, on its own listener, with the instance's root user and password, its
// allow_list checked at each connection and its TLS certificate signed by the instance's CA.
// Each instance's data lives in a Store (bbolt, in the appliance) as a SQL dump, saved after
// every write before the client's OK, so a restart, a backup and a restore all see what
// clients were told is written.
//
// It is a leaf: it imports nothing of this module, and the cloud domain drives it (Start when
// an instance becomes active or is resumed, Stop on suspend, Dump for a backup, Restore,
// SetPassword on a credentials reset, SetAllowList on an update, Remove on delete).
package sqlengine
