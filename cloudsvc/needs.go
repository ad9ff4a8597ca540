package cloudsvc

import (
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// Need is what an operation asks of its caller: the token's scope (Area at Level; Area ""
// accepts any token) and which users may call it (Who). It is declared once, here, so that
// every front end that offers the operation (the cloud API's route, the web console's page)
// refuses exactly the same callers.
type Need struct {
	Area, Level string
	Who         Who
}

// Check refuses c the operation unless c.Allows it: the API's own refusal, a
// fault.Forbidden (403) with the reason "Unauthorized".
func (n Need) Check(c *Caller) error {
	if !c.Allows(n.Area, n.Level, n.Who) {
		return fault.Forbidden("", "Unauthorized")
	}
	return nil
}

// The needs of the operations both front ends offer. The API's route table declares the others
// next to their routes; a level is explicit here where the API derives it from the method.
var (
	// NeedGetAccount guards the account record: GET /account.
	NeedGetAccount = Need{"account", cloudstore.ReadOnly, AccountGrant}
	// NeedListInvoices guards the account's invoices: GET /account/invoices.
	NeedListInvoices = Need{"account", cloudstore.ReadOnly, AccountGrant}
	// NeedListPayments guards the account's payments: GET /account/payments.
	NeedListPayments = Need{"account", cloudstore.ReadOnly, AccountGrant}
	// NeedListOAuthClients guards the account's OAuth clients: GET /account/oauth-clients.
	NeedListOAuthClients = Need{"account", cloudstore.ReadOnly, AccountGrant}
	// NeedCreateOAuthClient guards registering one: POST /account/oauth-clients.
	NeedCreateOAuthClient = Need{"account", cloudstore.ReadWrite, AccountGrant}

	// NeedListUsers guards the account's users: GET /account/users.
	NeedListUsers = Need{"account", cloudstore.ReadOnly, UnrestrictedOnly}
	// NeedGetUser guards one user and their grants: GET /account/users/{username} and
	// GET /account/users/{username}/grants.
	NeedGetUser = Need{"account", cloudstore.ReadOnly, UnrestrictedOnly}
	// NeedCreateUser guards adding a user: POST /account/users.
	NeedCreateUser = Need{"account", cloudstore.ReadWrite, UnrestrictedOnly}
	// NeedUpdateGrants guards changing a restricted user's grants: PUT
	// /account/users/{username}/grants.
	NeedUpdateGrants = Need{"account", cloudstore.ReadWrite, UnrestrictedOnly}
	// NeedDeleteUser guards removing one: DELETE /account/users/{username}.
	NeedDeleteUser = Need{"account", cloudstore.ReadWrite, UnrestrictedOnly}

	// NeedListTokens guards the caller's own tokens: GET /profile/tokens. Any user may list
	// theirs, with the account scope.
	NeedListTokens = Need{"account", cloudstore.ReadOnly, AnyUser}
	// NeedCreateToken guards creating a personal access token: POST /profile/tokens.
	NeedCreateToken = Need{"account", cloudstore.ReadWrite, AnyUser}

	// NeedListServiceTransfers guards the account's service transfers:
	// GET /account/service-transfers.
	NeedListServiceTransfers = Need{"account", cloudstore.ReadOnly, UnrestrictedOnly}
	// NeedAcceptTransfer guards taking a transfer for the account:
	// POST /account/service-transfers/{token}/accept (and its entity-transfer twin).
	NeedAcceptTransfer = Need{"account", cloudstore.ReadWrite, UnrestrictedOnly}

	// NeedListEvents guards the account's events: GET /account/events.
	NeedListEvents = Need{"events", cloudstore.ReadOnly, AnyUser}

	// NeedListDatabases guards the database lists: GET /databases/instances and
	// GET /databases/{family}/instances. A restricted user sees the databases they hold a
	// grant on.
	NeedListDatabases = Need{"databases", cloudstore.ReadOnly, AnyUser}
	// NeedGetDatabase guards one database: GET /databases/{family}/instances/{id}.
	NeedGetDatabase = Need{"databases", cloudstore.ReadOnly, AnyUser}
	// NeedCreateDatabase guards creating one: POST /databases/sqldb/instances (a restricted
	// user also needs the add_databases grant: MayCreateDatabase).
	NeedCreateDatabase = Need{"databases", cloudstore.ReadWrite, AnyUser}
	// NeedUpdateDatabase guards changing one, a resize included: PUT
	// /databases/{family}/instances/{id}.
	NeedUpdateDatabase = Need{"databases", cloudstore.ReadWrite, AnyUser}
	// NeedGetDatabaseCredentials guards a database's root credentials:
	// GET /databases/{family}/instances/{id}/credentials.
	NeedGetDatabaseCredentials = Need{"databases", cloudstore.ReadOnly, AnyUser}
	// NeedResetDatabaseCredentials guards resetting them: POST
	// /databases/{family}/instances/{id}/credentials/reset, unrestricted users only, with the
	// databases:read_write scope.
	NeedResetDatabaseCredentials = Need{"databases", cloudstore.ReadWrite, UnrestrictedOnly}
	// NeedDatabaseBackups guards a database's backups, read or written: GET and POST
	// /databases/{family}/instances/{id}/backups, GET …/backups/{backupId} and POST
	// …/backups/{backupId}/restore — the databases:read_write scope even to read them (the
	// seed's table).
	NeedDatabaseBackups = Need{"databases", cloudstore.ReadWrite, AnyUser}
	// NeedGetDatabaseSSL guards a database's CA certificate: GET
	// /databases/{family}/instances/{id}/ssl.
	NeedGetDatabaseSSL = Need{"databases", cloudstore.ReadOnly, AnyUser}
)
