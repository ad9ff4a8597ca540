package cloudstore

// AllScopes is the scope string of a token that may do everything: what a token's Scopes holds
// when it is not limited (the appliance's bootstrap token, an unscoped personal access token).
// Parsing and checking scopes is cloudsvc's (ParseScopes, ScopesAllow).
const AllScopes = "*"
