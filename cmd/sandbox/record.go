package main

import (
	"crypto/rand"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/eshop-sandbox/sandbox/sandbox/tools/record"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/record/anonymize"
)

func newRecordCmd() *cobra.Command {
	var (
		up      upstreamFlags
		out     string
		limit   int
		eshopID int
		key     string
		noStamp bool
		noTr    bool
	)
	cmd := &cobra.Command{
		Use:   "record",
		Short: "Record a real e-shop through its API into a fixture folder, personal data replaced",
		Long: `record reads an e-shop through the API (GET only) and writes a fixture folder
that sandbox up --fixtures DIR serves: products, orders, customers, documents,
settings and every other resource the fixtures hold that the API can read,
each record through its detail endpoint with every include section, up to
--max records per resource. With the foreign-languages module active, the
resources with texts are read again in each further language of the e-shop
and what differs is kept as the language version (--no-translations skips it).

It keeps the spec's limits: at most 3 calls at once, and a 429 or 503 with
Retry-After (an HTTP date) holds every call back until then; every call has a
timeout and every answer a size bound; no redirect is followed.

Personal data (names, e-mail addresses, phone numbers, postal addresses, IP
addresses, company and bank identifiers, birth dates, texts customers wrote)
is replaced by fakes derived with a keyed hash: the same value always gets the
same fake, so an order's e-mail is still its customer's. Without --anonymize-key
the key is random and thrown away; give one to record the same fakes again.

Tokens cannot be read: credentials.json gets a fresh private token with every
right (printed at the end). The written set is checked in full and stamped
(see sandbox fixtures check). Record into an empty folder; another e-shop may
be recorded into the same one (each lands in eshops/<id>).

What the API cannot give:
` + notRecorded(),
		Example: `  SANDBOX_TOKEN=... sandbox record --upstream https://api.example.com --out my-shop
  sandbox up --fixtures my-shop
  sandbox record --upstream http://127.0.0.1:9000 --token sbx_prv_... --out rec --max 200 --anonymize-key team-fixtures-2025`,
		Args: cobra.NoArgs,
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			return bindEnv(cmd)
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return usageError(cmd, "--out is required: the folder to write the fixture tree into")
			}
			if limit < 1 {
				return usageError(cmd, "--max must be at least 1")
			}
			client, err := up.client()
			if err != nil {
				return usageError(cmd, "%v", err)
			}
			defer client.Close()
			k := []byte(key)
			if key == "" {
				k = make([]byte, 32)
				_, _ = rand.Read(k)
			}
			anon, err := anonymize.New(k)
			if err != nil {
				return usageError(cmd, "--anonymize-key: %v", err)
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "recording %s into %s\n", client.Base, out)
			// Ctrl-C stops the calls and leaves no half-written folder.
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			sum, err := record.Record(ctx, record.Options{Client: client, Anon: anon, Out: out, Max: limit, Eshop: eshopID, Progress: w, NoTranslations: noTr})
			if err != nil {
				return fail(cmd, "%v", err)
			}
			if !noStamp {
				if _, err := checkFixtures(out, true); err != nil {
					return fail(cmd, "the recorded set does not pass its check: %v", err)
				}
			}
			printRecordSummary(cmd, sum, out)
			return nil
		},
	}
	up.add(cmd)
	f := cmd.Flags()
	f.StringVar(&out, "out", "", "folder to write the fixture tree into"+envHelp("out"))
	f.IntVar(&limit, "max", record.DefaultMax, "records per resource at most (orders, products, ...)")
	f.IntVar(&eshopID, "eshop", 0, "folder id of the recorded e-shop (default: the upstream's e-shop id)")
	f.StringVar(&key, "anonymize-key", "", "key of the fakes (16+ characters): the same key gives the same fakes; random when empty"+envHelp("anonymize-key"))
	f.BoolVar(&noTr, "no-translations", false, "record the default language's texts only (skips one read per translated record and further language)")
	f.BoolVar(&noStamp, "no-stamp", false, "skip checking the written set and stamping it (starts then check it in full)")
	return cmd
}

// notRecorded lists, for the help, what a recording cannot read.
func notRecorded() string {
	var b strings.Builder
	for _, n := range record.NotRecorded {
		fmt.Fprintf(&b, "  %s: %s\n", n.What, n.Why)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func printRecordSummary(cmd *cobra.Command, sum *record.Summary, out string) {
	w := cmd.OutOrStdout()
	total := 0
	for _, n := range sum.Records {
		total += n
	}
	fmt.Fprintf(w, "recorded e-shop %d %q: %d records in %s\n", sum.Eshop, sum.Name, total, sum.Dir)
	st := sum.Stats
	fmt.Fprintf(w, "  %d calls, at most %d at once; %d answers asked to wait (%s waited)\n", st.Calls, st.MaxActive, st.Throttled, st.Waited.Round(1e6))
	if len(sum.Truncated) > 0 {
		fmt.Fprintf(w, "  cut at --max: %s\n", strings.Join(sum.Truncated, ", "))
	}
	if len(sum.Skipped) > 0 {
		files := make([]string, 0, len(sum.Skipped))
		for f := range sum.Skipped {
			files = append(files, f)
		}
		sort.Strings(files)
		fmt.Fprintln(w, "  not recorded (the upstream refused):")
		for _, f := range files {
			fmt.Fprintf(w, "    %s: %s\n", f, sum.Skipped[f])
		}
	}
	kinds := make([]string, 0, len(sum.Replaced))
	for k, n := range sum.Replaced {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
	}
	sort.Strings(kinds)
	fmt.Fprintf(w, "  personal data replaced: %s\n", strings.Join(kinds, ", "))
	fmt.Fprintf(w, "  new private token (credentials.json): %s\n", sum.Token)
	fmt.Fprintf(w, "serve it: sandbox up --fixtures %s\n", out)
}
