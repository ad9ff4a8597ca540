// Package resolve owns the build farm's dependency decisions as the Open Build Service
// scheduler makes them, simplified but faithful in outcome and wording: the project build
// configuration (prjconf) and how a path chain's configurations merge (config*.go); which
// binaries a build installs, resolved along the path chain with Prefer/Ignore/Substitute and
// rpm's version rules, and why not ("nothing provides …", "have choice for …") (resolve.go,
// expand.go, vercmp.go); the build order of a repository's packages and its cycles (order.go);
// which packages are blocked and by what (blocked.go); the builddepinfo document (depinfo.go);
// and the hash that is resultlist@state (statehash.go).
//
// It is pure: plain values in and out, no storage, no HTTP, no clock, no goroutines, the same
// answer every time. It leaves out what the lead's scheduler owns (build flags, ExclusiveArch,
// reading specs, jobs, workers, the "waiting for N compliant workers" of scheduled jobs) and
// what the farm does not model: conflicts, obsoletes, recommends and supplements (Binary has
// none), rich (boolean) dependencies, versioned substitutes, Debian and other binary types, and
// the useforbuild and repository block modes.
package resolve
