// Command pocketforge is one binary and one data file serving a cloud platform API, a build
// service API and a repository explorer, for laptops, air-gapped networks and demos. `pocketforge`
// alone is `pocketforge serve`.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/store"
	"github.com/spf13/cobra"
)

// version is set at build time: go build -ldflags "-X main.version=1.2.3".
var version = "dev"

func main() {
	os.Exit(run(os.Args[1:], os.Environ(), os.Stdout, os.Stderr))
}

// run executes one command line and returns the exit code: 0, or with one line on stderr the
// code of its error (exitcodes.go).
func run(args, env []string, stdout, stderr io.Writer) int {
	root := newRoot(env, stdout, stderr)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	markUsage(root)
	if err := root.Execute(); err != nil {
		fmt.Fprintln(stderr, "pocketforge:", err)
		return exitCode(err)
	}
	return exitOK
}

// newRoot builds the command tree. --data and --config are persistent, so every command that
// opens the data file takes them the same way; the serve flags sit on both root and serve,
// because the root command serves.
func newRoot(env []string, stdout, stderr io.Writer) *cobra.Command {
	serveRun := func(cmd *cobra.Command, _ []string) error {
		cfg, err := config.FromFlags(cmd.Flags(), env)
		if err != nil {
			return err
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return serve(ctx, cfg, stdout, stderr, nil)
	}
	root := &cobra.Command{
		Use:           "pocketforge",
		Short:         "Cloud, build-service and explorer APIs in one binary with one data file",
		Args:          cobra.NoArgs,
		RunE:          serveRun,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.CompletionOptions.DisableDefaultCmd = true
	config.RegisterCommon(root.PersistentFlags())
	config.RegisterServe(root.Flags())

	serveCmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve every API on one listener (the default command)",
		Args:  cobra.NoArgs,
		RunE:  serveRun,
	}
	config.RegisterServe(serveCmd.Flags())

	versionCmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version and the data-file schema version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintf(stdout, "pocketforge %s (data schema %d, %s)\n", version, store.SchemaVersion(), runtime.Version())
		},
	}
	root.AddCommand(serveCmd, versionCmd, newExport(env, stdout), newImport(env, stdout), newImportSPDX(env, stdout))
	root.AddCommand(newValues(stdout), newMigrate(stdout))
	root.AddCommand(newDoctor(env, stdout), newCompact(env, stdout), newHealthcheck(env, stdout))
	return root
}
