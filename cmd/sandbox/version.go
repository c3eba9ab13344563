package main

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=..." (make
// build, make install, the Dockerfile).
var version = "dev"

// buildVersion is the one version string of this build: `sandbox version`
// prints it, `sandbox up` passes it in sandbox.Config.Version (the HAR
// creator, the control plane's index). The linker's main.version wins;
// else the module version `go install ...@v1.2.3` records; else the commit
// `go build` in a clone records (dev-<commit>, -dirty when changed); else
// "dev".
func buildVersion() string {
	if version != "dev" && version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if rev == "" {
		return "dev"
	}
	return "dev-" + rev[:min(12, len(rev))] + dirty
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the sandbox version",
		Example: "  sandbox version",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintf(cmd.OutOrStdout(), "sandbox %s (interface version 1.0)\n", buildVersion())
			return nil
		},
	}
}
