package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// needArgs requires at least n arguments. Called without them, the
// command says what is missing, prints its usage line and one example, and
// points at --help, instead of cobra's bare "requires at least 1 arg(s)".
func needArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) >= n {
			return nil
		}
		return usageError(cmd, "%s needs %s", cmd.CommandPath(), what)
	}
}

// exactArgs requires exactly n arguments, explained like needArgs.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) < n:
			return usageError(cmd, "%s needs %s", cmd.CommandPath(), what)
		case len(args) > n:
			return usageError(cmd, "%s takes %s, not %d arguments (%s)", cmd.CommandPath(), what, len(args), strings.Join(args, " "))
		}
		return nil
	}
}

// usageError prints a usage mistake for a person: the problem, the usage
// line, the command's first example, and where the full help is.
func usageError(cmd *cobra.Command, format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	w := cmd.ErrOrStderr()
	fmt.Fprintf(w, "error: %v\n\nUsage:\n  %s\n", err, cmd.UseLine())
	if ex := firstExample(cmd.Example); ex != "" {
		fmt.Fprintf(w, "\nExample:\n%s\n", ex)
	}
	fmt.Fprintf(w, "\nRun '%s --help' for every flag and more examples.\n", cmd.CommandPath())
	return reported{err}
}

// firstExample is the first line of a command's examples, with its comment.
func firstExample(examples string) string {
	for _, l := range strings.Split(examples, "\n") {
		if strings.TrimSpace(l) != "" {
			return l
		}
	}
	return ""
}
