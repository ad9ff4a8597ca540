package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/config"
	"github.com/spf13/cobra"
)

// newHealthcheck builds `pocketforge healthcheck`: GET /_appliance/readyz on the address the
// server listens on, exit 0 when it answers 200. It exists for container images without curl
// (the Dockerfile's HEALTHCHECK): it takes the serve flags, so the same command line, POCKETFORGE_*
// variables or --config file that started the server tell it where to look.
func newHealthcheck(env []string, stdout io.Writer) *cobra.Command {
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "healthcheck",
		Short: "Exit 0 when the server at --addr answers 200 on /_appliance/readyz (for container health checks)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := config.FromFlags(cmd.Flags(), env)
			if err != nil {
				return err
			}
			url := "http://" + localAddr(cfg.Addr) + "/_appliance/readyz"
			client := &http.Client{Timeout: timeout}
			resp, err := client.Get(url)
			if err != nil {
				return fmt.Errorf("healthcheck: %v", err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
			if resp.StatusCode != http.StatusOK {
				return fmt.Errorf("healthcheck: %s answered %s: %s", url, resp.Status, strings.TrimSpace(string(body)))
			}
			fmt.Fprintf(stdout, "ready: %s\n", url)
			return nil
		},
	}
	config.RegisterServe(cmd.Flags())
	cmd.Flags().DurationVar(&timeout, "timeout", 3*time.Second, "how long to wait for the answer")
	return cmd
}

// localAddr turns a listen address into one to connect to: a wildcard or empty host (0.0.0.0,
// ::, "") becomes the loopback address, where a server listening on every interface answers.
func localAddr(listen string) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return listen
	}
	switch host {
	case "", "0.0.0.0":
		host = "127.0.0.1"
	case "::", "[::]":
		host = "::1"
	}
	return net.JoinHostPort(host, port)
}
