package sqlengine

import (
	"strings"
)

// stmtKind is what the wire layer needs to know about a statement before the engine runs it:
// whether it may change data (it then runs alone and is saved before its OK), whether it may
// grow the data (refused past the memory bound), and whether it is refused outright.
type stmtKind int

const (
	// kindRead cannot change committed data: it shares the instance with other reads.
	kindRead stmtKind = iota
	// kindShrink may change data but not grow it (DELETE, DROP, TRUNCATE, COMMIT of those is a
	// kindWrite): allowed past the memory bound, so a full instance can be cleaned up.
	kindShrink
	// kindWrite may change data or schema.
	kindWrite
	// kindAccount manages users or passwords, which belong to the API, not to SQL.
	kindAccount
	// kindUnkept creates what a dump does not hold (a trigger, a routine, an event): refused
	// rather than silently lost at the next restart or restore.
	kindUnkept
)

// classify looks at a statement's first words. Anything it does not know is a write: a
// needless save costs time, a missed one would lose an acknowledged write.
func classify(q string) stmtKind {
	w1, rest := firstWord(q)
	switch w1 {
	case "select", "show", "describe", "desc", "explain", "help", "use", "begin", "start",
		"rollback", "savepoint", "release", "do", "handler", "prepare", "deallocate", "kill":
		return kindRead
	case "set":
		w2, _ := firstWord(rest)
		switch {
		case w2 == "password":
			return kindAccount
		case strings.Contains(strings.ToLower(rest), "autocommit"):
			return kindWrite // turning autocommit on commits the open transaction
		}
		return kindRead
	case "delete", "drop", "truncate":
		w2, _ := firstWord(rest)
		if w1 == "drop" && (w2 == "user" || w2 == "role") {
			return kindAccount
		}
		return kindShrink
	case "create", "alter", "rename":
		w2, _ := firstWord(rest)
		if w2 == "user" || w2 == "role" {
			return kindAccount
		}
		if w1 == "create" && createsUnkept(rest) {
			return kindUnkept
		}
	case "grant", "revoke":
		return kindAccount
	case "flush":
		return kindRead
	}
	return kindWrite
}

// firstWord returns q's first word, lower-cased, after white space, comments and opening
// parentheses, and the text after it.
func firstWord(q string) (string, string) {
	for {
		q = strings.TrimLeft(q, " \t\r\n(")
		switch {
		case strings.HasPrefix(q, "/*") && !strings.HasPrefix(q, "/*!"):
			end := strings.Index(q[2:], "*/")
			if end < 0 {
				return "", ""
			}
			q = q[end+4:]
			continue
		case strings.HasPrefix(q, "-- "), strings.HasPrefix(q, "#"):
			end := strings.IndexByte(q, '\n')
			if end < 0 {
				return "", ""
			}
			q = q[end+1:]
			continue
		}
		break
	}
	end := strings.IndexFunc(q, func(r rune) bool { return !isWordRune(r) })
	if end < 0 {
		end = len(q)
	}
	return strings.ToLower(q[:end]), q[end:]
}

// createsUnkept tells whether a CREATE (after its first word) makes a trigger, procedure,
// function or event, looking past OR REPLACE, DEFINER = … and the like.
func createsUnkept(rest string) bool {
	for i := 0; i < 8 && rest != ""; i++ {
		rest = strings.TrimLeftFunc(rest, func(r rune) bool { return !isWordRune(r) })
		var w string
		w, rest = firstWord(rest)
		switch w {
		case "trigger", "procedure", "function", "event":
			return true
		case "table", "view", "database", "schema", "index", "unique", "fulltext", "spatial", "temporary", "user", "role":
			return false
		}
	}
	return false
}

func isWordRune(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_' }
