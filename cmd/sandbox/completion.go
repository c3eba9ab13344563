package main

import (
	"context"
	"encoding/json"
	"io/fs"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox/controlclient"
)

// Shell completion: cobra's `sandbox completion bash|zsh|fish|powershell`
// prints the script; the functions here complete flag values and
// arguments that a file name does not describe.

// completeWords completes a flag from a fixed list (enum flags).
func completeWords(words ...string) cobra.CompletionFunc {
	return cobra.FixedCompletions(words, cobra.ShellCompDirectiveNoFileComp)
}

// completeScenarioFiles completes scenario files (*.yaml, *.yml) and the
// folders that may hold them.
func completeScenarioFiles(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return []cobra.Completion{"yaml", "yml"}, cobra.ShellCompDirectiveFilterFileExt
}

// completeFolders completes folder names only.
func completeFolders(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveFilterDirs
}

// completeExamples completes the names of the embedded example scenarios.
func completeExamples(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return exampleNames(), cobra.ShellCompDirectiveNoFileComp
}

// shopSummary is what completion needs of an e-shop.
type shopSummary struct {
	ID     int
	Name   string
	Addons []string
}

// completionTimeout bounds the question to a running sandbox: a shell
// must never hang on a tab.
const completionTimeout = 1500 * time.Millisecond

// knownShops lists the e-shops with their add-ons: from the running
// sandbox (the client's target, GET /_sandbox/eshops) when one answers,
// else from the embedded default fixtures.
func knownShops(cmd *cobra.Command) []shopSummary {
	ctx, cancel := context.WithTimeout(context.Background(), completionTimeout)
	defer cancel()
	if t, err := resolveTarget(cmd); err == nil {
		if shops, err := remoteShops(ctx, t.URL); err == nil {
			return shops
		}
	}
	return fixtureShops(fixtures.FS)
}

// remoteShops reads the e-shops and add-ons of a running sandbox.
func remoteShops(ctx context.Context, base string) ([]shopSummary, error) {
	cc := controlclient.New(base, &http.Client{Timeout: completionTimeout})
	cc.Unrecorded = true // a tab press is not the user's traffic
	shops, err := cc.Eshops(ctx)
	if err != nil {
		return nil, err
	}
	var out []shopSummary
	for _, e := range shops {
		s := shopSummary{ID: e.ID, Name: e.Name}
		for _, a := range e.Addons {
			s.Addons = append(s.Addons, a.Name)
		}
		out = append(out, s)
	}
	return out, nil
}

// fixtureShops reads the e-shops and add-ons of a fixture set
// (eshops/<id>/eshop.json and credentials.json); unreadable files are
// left out, since completion only offers what it is sure of.
func fixtureShops(fsys fs.FS) []shopSummary {
	dirs, _ := fs.ReadDir(fsys, "eshops")
	var out []shopSummary
	for _, d := range dirs {
		id, err := strconv.Atoi(d.Name())
		if err != nil || !d.IsDir() {
			continue
		}
		s := shopSummary{ID: id}
		var info struct {
			ContactInformation struct {
				EshopName string `json:"eshopName"`
			} `json:"contactInformation"`
		}
		if raw, err := fs.ReadFile(fsys, "eshops/"+d.Name()+"/eshop.json"); err == nil && json.Unmarshal(raw, &info) == nil {
			s.Name = info.ContactInformation.EshopName
		}
		var creds struct {
			Addons []struct {
				Name string `json:"name"`
			} `json:"addons"`
		}
		if raw, err := fs.ReadFile(fsys, "eshops/"+d.Name()+"/credentials.json"); err == nil && json.Unmarshal(raw, &creds) == nil {
			for _, a := range creds.Addons {
				s.Addons = append(s.Addons, a.Name)
			}
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// completeEshops completes e-shop ids, each with its name.
func completeEshops(cmd *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var out []cobra.Completion
	for _, s := range knownShops(cmd) {
		out = append(out, cobra.CompletionWithDesc(strconv.Itoa(s.ID), s.Name))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completeAddons completes add-on names (of the --eshop given, when one
// is), each with the e-shops that know it.
func completeAddons(cmd *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	only, _ := cmd.Flags().GetInt("eshop")
	where := map[string][]string{}
	var names []string
	for _, s := range knownShops(cmd) {
		if only > 0 && s.ID != only {
			continue
		}
		for _, a := range s.Addons {
			if _, seen := where[a]; !seen {
				names = append(names, a)
			}
			where[a] = append(where[a], strconv.Itoa(s.ID))
		}
	}
	var out []cobra.Completion
	for _, n := range names {
		out = append(out, cobra.CompletionWithDesc(n, "e-shop "+strings.Join(where[n], ", ")))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// mustComplete registers a flag completion; the flag exists by
// construction, so a failure is a programming error.
func mustComplete(cmd *cobra.Command, flag string, f cobra.CompletionFunc) {
	if err := cmd.RegisterFlagCompletionFunc(flag, f); err != nil {
		panic(err)
	}
}
