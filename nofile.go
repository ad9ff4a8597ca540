package main

import (
	"log/slog"

	"github.com/pocketforge/pocketforge/config"
)

// The open-file limit and the connection cap (issue 32): every connection is a file
// descriptor, and so are the data file, the log, the listeners of the managed databases and
// their clients. A cap above what the process may open turns a flood of connections into
// failed accepts instead of 503s. So at start the soft limit is raised to the hard one (what an
// unprivileged process may do), and --max-conns auto is 4096 or, under a lower limit, the
// limit less fdReserve (at least 16); an explicit cap over that is kept, with a warning.

// defaultMaxConns is --max-conns auto under a generous open-file limit.
const defaultMaxConns = 4096

// fdReserve is what is left of the open-file limit for everything that is not an HTTP
// connection.
const fdReserve = 256

// resolveMaxConns raises the open-file limit, sets cfg.MaxConns when it is auto, and logs the
// choice.
func resolveMaxConns(cfg *config.Config, log *slog.Logger) {
	soft, hard, ok := raiseFileLimit()
	room := defaultMaxConns
	if ok {
		room = max(int(min(soft, 1<<30))-fdReserve, 16)
	}
	auto := cfg.MaxConns == 0
	if auto {
		cfg.MaxConns = min(defaultMaxConns, room)
	}
	switch {
	case !ok:
		log.Info("connections", "max_conns", cfg.MaxConns, "auto", auto, "open_file_limit", "unknown")
	case !auto && cfg.MaxConns > room:
		log.Warn("--max-conns is above what the open-file limit leaves for connections: a flood of them will fail to be accepted instead of being answered 503",
			"max_conns", cfg.MaxConns, "open_file_limit", soft, "hard_limit", hard)
	default:
		log.Info("connections", "max_conns", cfg.MaxConns, "auto", auto, "open_file_limit", soft, "hard_limit", hard)
	}
}
