package store

// The one registry of bucket names. Every top-level bucket of the data file is declared here, so
// a reader of this file sees the whole layout; domains (store/cloud, store/build, …) add their
// names below and keep their key layout next to their accessors.
const (
	// BucketMeta holds the file's identity and schema version (see migrate.go).
	BucketMeta = "meta"
	// BucketAppliance holds the running appliance's own state: the hashed bootstrap credentials
	// and the dev-clock offset. It survives Reset and Restore, so restoring a snapshot from
	// another machine never locks the operator out of /_appliance.
	BucketAppliance = "appliance"
	// BucketFixtures records which demo fixture sets were applied and whether the file wants them.
	BucketFixtures = "fixtures"
	// BucketOutbox holds the e-mails the APIs send, keyed by big-endian sequence.
	BucketOutbox = "outbox"

	// Cloud API (store/cloud holds the key layout of each).
	CloudAccounts        = "cloud/accounts"         // account id → Account
	CloudUsers           = "cloud/users"            // lower(username) → User
	CloudAccountUsers    = "cloud/account_users"    // index: account id → lower(username)
	CloudTokens          = "cloud/tokens"           // sha256(token) → Token
	CloudTokenIDs        = "cloud/token_ids"        // token id → sha256(token)
	CloudUserTokens      = "cloud/user_tokens"      // index: lower(username) → token id
	CloudClientTokens    = "cloud/client_tokens"    // index: OAuth client id → token id
	CloudRefreshTokens   = "cloud/refresh_tokens"   // sha256(refresh token) → token id
	CloudClients         = "cloud/oauth_clients"    // OAuth client id → Client
	CloudAccountClients  = "cloud/account_clients"  // index: account id → OAuth client id
	CloudThumbnails      = "cloud/oauth_thumbnails" // OAuth client id → PNG bytes
	CloudCodes           = "cloud/oauth_codes"      // sha256(authorization code) → Code
	CloudPasswordSetups  = "cloud/password_setups"  // sha256(setup token) → PasswordSetup
	CloudEvents          = "cloud/events"           // event id → Event
	CloudAccountEvents   = "cloud/account_events"   // index: account id → event id
	CloudLogins          = "cloud/logins"           // login id → Login
	CloudAccountLogins   = "cloud/account_logins"   // index: account id → login id
	CloudInstances       = "cloud/instances"        // instance id → Instance
	CloudAccountEntities = "cloud/account_entities" // index: account id → kind 0x00 entity id

	CloudPaymentMethods        = "cloud/payment_methods"         // payment method id → PaymentMethod
	CloudAccountPaymentMethods = "cloud/account_payment_methods" // index: account id → payment method id
	CloudPayments              = "cloud/payments"                // payment id → Payment
	CloudAccountPayments       = "cloud/account_payments"        // index: account id → payment id
	CloudInvoices              = "cloud/invoices"                // invoice id → Invoice (items inside)
	CloudAccountInvoices       = "cloud/account_invoices"        // index: account id → invoice id
	CloudPromoCodes            = "cloud/promo_codes"             // upper(code) → PromoCode (the catalogue)
	CloudTransfers             = "cloud/transfers"               // token → Transfer (service and entity)
	CloudAccountTransfers      = "cloud/account_transfers"       // index: account id → token (sender and receiver)
	CloudEventsByCreated       = "cloud/events_by_created"       // index: account id → created (BE unix ns) + event id
	CloudEventsByEntity        = "cloud/events_by_entity"        // index: account id → entity id 0 entity type 0 created + event id
	CloudEventsSeen            = "cloud/events_seen"             // account id → id of the last event marked seen

	CloudDatabases           = "cloud/databases"             // database id → Database (deleted ones stay, for billing)
	CloudAccountDatabases    = "cloud/account_databases"     // index: account id → database id (deleted ones too)
	CloudDatabaseLabels      = "cloud/database_labels"       // index: account id → lower(label) of a live database
	CloudDatabaseSecrets     = "cloud/database_secrets"      // database id → DatabaseSecrets (root password, CA certificate)
	CloudDatabaseBackups     = "cloud/database_backups"      // backup id → DatabaseBackup
	CloudDatabaseBackupIndex = "cloud/database_backup_index" // index: database id → backup id
	CloudDatabaseSchedule    = "cloud/database_schedule"     // due (BE unix ns) + database id → empty: what the clock job does next
	CloudDatabaseCatalog     = "cloud/database_catalog"      // "catalog" → DatabaseCatalog (regions, engines, types)
	// CloudDatabaseData holds each connectable sqldb instance's data (store/cloudstore/
	// databases_data.go): database id → its SQL dump (raw bytes, not JSON), saved by sqlengine
	// before each write's OK, so a snapshot of the data file carries the databases' data.
	CloudDatabaseData = "cloud/database_data"
	// CloudDatabaseBackupDumps holds the data a backup of a connectable instance took: backup id →
	// SQL dump (raw bytes), deleted with the backup.
	CloudDatabaseBackupDumps = "cloud/database_backup_dumps"

	// Build service API (store/build holds the key layout of each).
	BuildPersons   = "build/persons"   // login → Person
	BuildGroups    = "build/groups"    // title → Group
	BuildProjects  = "build/projects"  // name → Project
	BuildPackages  = "build/packages"  // project 0x00 package → Package
	BuildBlobs     = "build/blobs"     // md5 hex → file content (raw bytes, not JSON)
	BuildRevisions = "build/revisions" // project 0x00 package 0x00 BE rev → Revision (tree inside)
	BuildUploads   = "build/uploads"   // project 0x00 package → Upload (files PUT with rev=upload)
	BuildTokens    = "build/tokens"    // login 0x00 BE id → Token (secret kept as SHA-256 only)
	BuildInstance  = "build/instance"  // "configuration" → Configuration; "distributions" → []Distribution
	BuildTrackers  = "build/trackers"  // name → IssueTracker
	// BuildExpansions keeps expanded link trees by xsrcmd5: project 0x00 package 0x00 xsrcmd5 → Expansion.
	BuildExpansions = "build/expansions"
	// BuildLinks indexes links by target: target project 0x00 target package 0x00 project 0x00 package → empty.
	BuildLinks = "build/links"
	// BuildPendingBlobs notes uploaded blobs no revision holds yet: md5 hex → unix time (store/build/pending.go).
	BuildPendingBlobs = "build/pending_blobs"
	// BuildMetaRevisions keeps package meta history: project 0x00 package 0x00 BE rev → Revision (tree: _meta).
	BuildMetaRevisions = "build/meta_revisions"

	// Build service attributes (store/build/attributes.go).
	BuildAttributeNamespaces       = "build/attribute_namespaces"        // namespace → AttributeNamespace
	BuildAttributeDefinitions      = "build/attribute_definitions"       // namespace 0x00 name → AttributeDefinition
	BuildAttributes                = "build/attributes"                  // project 0x00 package 0x00 binary 0x00 namespace 0x00 name → Attribute
	BuildAttributeDefinitionValues = "build/attribute_definition_values" // index: namespace 0x00 name → attributes key

	// Build service project extras (store/build/keys.go, store/build/patterns.go).
	BuildSignKeys = "build/signkeys" // project name (or "_global") → SignKey (the private key too: never served)
	BuildPatterns = "build/patterns" // project 0x00 pattern file name → Pattern

	// Build farm (store/buildstore/farm_*.go). A "where" key is project 0x00 repository 0x00 arch.
	BuildFarmDirty      = "build/farm_dirty"      // project → BE unix ns since its sources or metas changed: the scheduler's queue
	BuildFarmStatus     = "build/farm_status"     // where 0x00 package → BuildStatus
	BuildFarmRepos      = "build/farm_repos"      // where → RepoState
	BuildFarmBinaries   = "build/farm_binaries"   // where 0x00 package 0x00 file name → Binary
	BuildFarmFiles      = "build/farm_files"      // where 0x00 package 0x00 file name → the file (raw bytes)
	BuildFarmLogs       = "build/farm_logs"       // where 0x00 package 0x00 ("cur" | "last") → build log (raw bytes)
	BuildFarmHistory    = "build/farm_history"    // where 0x00 package 0x00 BE seq → HistoryEntry
	BuildFarmJobHistory = "build/farm_jobhistory" // where 0x00 BE seq → JobHistoryEntry
	BuildFarmPublished  = "build/farm_published"  // project 0x00 repository 0x00 path → published file (raw bytes)
	// BuildFarmPublishedNames indexes the published RPMs by binary name
	// (store/buildstore/farm_published_names.go): name 0x00 project 0x00 repository 0x00 path → "".
	BuildFarmPublishedNames = "build/farm_published_names"

	// Build service requests and comments (store/buildstore/requests*.go, comments.go).
	BuildRequests     = "build/requests"      // BE id → Request
	BuildRequestIndex = "build/request_index" // kind 0x00 value 0x00 BE id → "" (requests.go's RequestKeys)
	BuildComments     = "build/comments"      // BE id → Comment
	BuildCommentIndex = "build/comment_index" // kind 0x00 object 0x00 BE id → "": the comments of one project, package or request
	// BuildRoleIndex says who holds which role where (store/buildstore/roles_index.go): holder
	// 0x00 role 0x00 project 0x00 package → "", the holder a login or "group:" + title, the
	// package "" for a project role. Only live projects and packages are in it.
	BuildRoleIndex = "build/role_index"
	// BuildIssues holds the issues of the trackers that sources, patchinfos and attributes
	// mention (store/buildstore/issues.go): tracker 0x00 name → Issue.
	BuildIssues = "build/issues"
	// BuildIssueIndex links packages and issues both ways: "p" 0x00 project 0x00 package 0x00
	// tracker 0x00 name → change and "i" 0x00 tracker 0x00 name 0x00 project 0x00 package →
	// change. Only live packages are in it.
	BuildIssueIndex = "build/issue_index"
	// Build service tags (store/buildstore/tags.go): one user's tag on a project or package.
	BuildTags     = "build/tags"      // kind 0x00 project 0x00 (package 0x00) user 0x00 tag → Tagging
	BuildTagIndex = "build/tag_index" // ("tag" 0x00 tag | "user" 0x00 login) 0x00 BuildTags key → the BuildTags key
	// Build service status messages and messages (store/buildstore/status_messages.go,
	// messages.go): the instance's announcements, and the notes kept on a project or package.
	BuildStatusMessages = "build/status_messages" // BE id → StatusMessage (deleted ones stay, marked)
	BuildMessages       = "build/messages"        // BE id → Message
	BuildMessageIndex   = "build/message_index"   // kind 0x00 project 0x00 (package 0x00) BE id → "": one object's messages

	// Build service statistics (store/buildstore/statistics.go).
	BuildActivity      = "build/activity"       // project 0x00 package → Activity (project 0x00 "" → the project's)
	BuildRatings       = "build/ratings"        // project 0x00 package 0x00 login → Rating (package "" for a project)
	BuildDownloadStats = "build/download_stats" // project 0x00 package 0x00 repository 0x00 arch 0x00 filename 0x00 filetype 0x00 version 0x00 release → DownloadStat

	// Explorer (store/explorer holds the key layout). Each index bucket holds one nested bucket
	// per product, so a product is imported with keys in order (fast in bbolt) and removed by
	// dropping its buckets; a search seeks in each product's bucket (products are few).
	ExplorerProducts   = "explorer/products"    // product full name → Product
	ExplorerPackages   = "explorer/packages"    // /product: BE32 seq → Package
	ExplorerByName     = "explorer/by_name"     // /product: lower(name) 0x00 BE32 seq → ""
	ExplorerByVCS      = "explorer/by_vcs"      // /product: lower(org 0x00 repo 0x00 branch 0x00 commit) 0x00 BE32 seq → ""
	ExplorerByRPM      = "explorer/by_rpm"      // /product: rpm filename 0x00 BE32 seq → ""
	ExplorerByFile     = "explorer/by_file"     // /product: path 0x00 rpm filename → ""
	ExplorerByBasename = "explorer/by_basename" // /product: basename 0x00 path → ""
	ExplorerMeta       = "explorer/meta"        // "generation" → BE64 change counter (the search index follows it); "stamp" → random content version (search answers are cached by it)

	// The explorer's git hosting model (store/explorerstore/git.go): repositories with their
	// branches, and which repositories are forks of which.
	ExplorerGitRepos = "explorer/git_repos" // lower(owner) 0x00 lower(name) → GitRepo
	ExplorerGitForks = "explorer/git_forks" // index: lower(origin owner 0x00 origin name) 0x00 lower(fork owner 0x00 fork name) → ""
)

// bucketSpec declares one top-level bucket.
type bucketSpec struct {
	name string
	// keep marks appliance state that Reset and Restore leave alone.
	keep bool
}

// registry lists every top-level bucket; Open creates the missing ones.
var registry = []bucketSpec{
	{name: BucketMeta, keep: true},
	{name: BucketAppliance, keep: true},
	{name: BucketFixtures},
	{name: BucketOutbox},
	{name: CloudAccounts}, {name: CloudUsers}, {name: CloudAccountUsers},
	{name: CloudTokens}, {name: CloudTokenIDs}, {name: CloudUserTokens}, {name: CloudClientTokens},
	{name: CloudRefreshTokens}, {name: CloudClients}, {name: CloudAccountClients}, {name: CloudThumbnails},
	{name: CloudCodes}, {name: CloudPasswordSetups}, {name: CloudEvents}, {name: CloudAccountEvents},
	{name: CloudLogins}, {name: CloudAccountLogins}, {name: CloudInstances}, {name: CloudAccountEntities},
	{name: CloudPaymentMethods}, {name: CloudAccountPaymentMethods}, {name: CloudPayments}, {name: CloudAccountPayments},
	{name: CloudInvoices}, {name: CloudAccountInvoices}, {name: CloudPromoCodes},
	{name: CloudTransfers}, {name: CloudAccountTransfers}, {name: CloudEventsByCreated}, {name: CloudEventsByEntity},
	{name: CloudEventsSeen},
	{name: CloudDatabases}, {name: CloudAccountDatabases}, {name: CloudDatabaseLabels}, {name: CloudDatabaseSecrets},
	{name: CloudDatabaseBackups}, {name: CloudDatabaseBackupIndex}, {name: CloudDatabaseSchedule}, {name: CloudDatabaseCatalog},
	{name: CloudDatabaseData}, {name: CloudDatabaseBackupDumps},
	{name: BuildPersons}, {name: BuildGroups}, {name: BuildProjects}, {name: BuildPackages},
	{name: BuildBlobs}, {name: BuildRevisions}, {name: BuildUploads}, {name: BuildTokens},
	{name: BuildInstance}, {name: BuildTrackers}, {name: BuildExpansions}, {name: BuildLinks}, {name: BuildPendingBlobs}, {name: BuildMetaRevisions},
	{name: ExplorerProducts}, {name: ExplorerPackages}, {name: ExplorerByName}, {name: ExplorerByVCS}, {name: ExplorerByRPM},
	{name: ExplorerByFile}, {name: ExplorerByBasename}, {name: ExplorerMeta},
	{name: BuildAttributeNamespaces}, {name: BuildAttributeDefinitions}, {name: BuildAttributes}, {name: BuildAttributeDefinitionValues},
	{name: BuildSignKeys}, {name: BuildPatterns},
	{name: BuildFarmDirty}, {name: BuildFarmStatus}, {name: BuildFarmRepos}, {name: BuildFarmBinaries}, {name: BuildFarmFiles},
	{name: BuildFarmLogs}, {name: BuildFarmHistory}, {name: BuildFarmJobHistory}, {name: BuildFarmPublished},
	{name: BuildFarmPublishedNames},
	{name: BuildRequests}, {name: BuildRequestIndex}, {name: BuildComments}, {name: BuildCommentIndex},
	{name: BuildRoleIndex}, {name: BuildIssues}, {name: BuildIssueIndex},
	{name: BuildTags}, {name: BuildTagIndex},
	{name: BuildActivity}, {name: BuildRatings}, {name: BuildDownloadStats},
	{name: BuildStatusMessages}, {name: BuildMessages}, {name: BuildMessageIndex},
	{name: ExplorerGitRepos}, {name: ExplorerGitForks},
}

// kept reports whether Reset and Restore leave the named bucket alone.
func kept(name string) bool {
	for _, b := range registry {
		if b.name == name {
			return b.keep
		}
	}
	return false
}
