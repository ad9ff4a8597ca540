package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/pocketforge/pocketforge/values"
	"github.com/spf13/cobra"
)

// newValues builds `pocketforge values`: the load-balancer chart's deployment values checked
// offline, before an install — what `helm lint` would say about a values file, without helm, a
// chart download or a cluster. The same validator answers POST /deploy/values/validate.
func newValues(stdout io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "values",
		Short: "Validate deployment values of the load-balancer chart; print its schema and defaults",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newValuesValidate(stdout), &cobra.Command{
		Use:   "schema",
		Short: "Print the values schema (JSON Schema draft-07)",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := stdout.Write(values.Schema())
			return err
		},
	}, &cobra.Command{
		Use:   "defaults",
		Short: "Print the default values a values file is merged over",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := stdout.Write(values.DefaultsYAML())
			return err
		},
	})
	return cmd
}

// newValuesValidate builds `pocketforge values validate FILE…`. Each file gets "FILE: valid", or
// one line per violation, "FILE: /speaker/memberlist/mlBindPort: type: got string \"7946\", want
// integer", or one line saying why it is not a values file (with line and column). The exit
// status is 0 only when every file is valid, so it can gate a pipeline.
func newValuesValidate(stdout io.Writer) *cobra.Command {
	var noDefaults bool
	cmd := &cobra.Command{
		Use:   "validate FILE...",
		Short: "Validate values files (YAML or JSON; - for stdin), merged over the defaults as helm does",
		Long: `Validate values files (YAML or JSON; - reads stdin) against the chart's values schema.
Each file is merged over the default values the way helm merges (maps key by key, your value
wins, null removes a default) before it is validated; --no-defaults validates the file alone.
Prints "FILE: valid" or one line per violation: FILE: /json/pointer: rule: what was found.
Exits 1 when any file is not valid.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			failed := 0
			for _, arg := range args {
				if !validateFile(cmd.InOrStdin(), stdout, arg, values.Options{NoDefaults: noDefaults}) {
					failed++
				}
			}
			if failed > 0 {
				return fmt.Errorf("%d of %d values files not valid", failed, len(args))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&noDefaults, "no-defaults", false, "validate each file alone, not merged over the default values")
	return cmd
}

// validateFile checks one file ("-" is stdin) and prints its result lines; it reports whether the
// file is valid.
func validateFile(stdin io.Reader, stdout io.Writer, arg string, opts values.Options) bool {
	name := arg
	if arg == "-" {
		name = "<stdin>"
	}
	data, err := readValues(stdin, arg)
	if err != nil {
		fmt.Fprintf(stdout, "%s: %v\n", name, err)
		return false
	}
	vs, err := values.Validate(data, opts)
	if err != nil {
		fmt.Fprintf(stdout, "%s: %v\n", name, err)
		return false
	}
	if len(vs) == 0 {
		fmt.Fprintf(stdout, "%s: valid\n", name)
		return true
	}
	for _, v := range vs {
		fmt.Fprintf(stdout, "%s: %s\n", name, v)
	}
	return false
}

// readValues reads at most values.MaxSize bytes (one more tells a file over the limit), so a
// huge or endless input (a device, a pipe) costs no more than that.
func readValues(stdin io.Reader, arg string) ([]byte, error) {
	r := stdin
	if arg != "-" {
		f, err := os.Open(arg)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.IsDir() {
			return nil, errors.New("is a directory, not a values file")
		}
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, values.MaxSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > values.MaxSize {
		return nil, values.ErrTooLarge
	}
	return data, nil
}
