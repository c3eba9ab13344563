package openapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// redoclyVersion is the linter the documents are held to; pinned so that a
// new release's rules cannot turn the build red overnight.
const redoclyVersion = "2.77.0"

// lintConfig is Redocly's recommended rule set, less no-ambiguous-paths:
// the real service's own paths are ambiguous (/api/customers/groups/{id}
// and /api/customers/{guid}/accounts, ...), and the document must keep them.
const lintConfig = "extends:\n  - recommended\nrules:\n  no-ambiguous-paths: off\n"

// TestLintRedocly installs @redocly/cli from npm into a temp folder (once
// for both documents) and requires no error and no warning in the API's
// and the control plane's documents as a sandbox serves them.
func TestLintRedocly(t *testing.T) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed: the OpenAPI lint (@redocly/cli) cannot run; install Node.js and npm to run it")
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	install := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error",
		"--prefix", dir, "@redocly/cli@"+redoclyVersion)
	install.Env = append(os.Environ(), "npm_config_update_notifier=false")
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm install @redocly/cli@%s: %v\n%s", redoclyVersion, err, out)
	}
	cli := filepath.Join(dir, "node_modules", ".bin", "redocly")
	config := filepath.Join(dir, "redocly.yaml")
	if err := os.WriteFile(config, []byte(lintConfig), 0o644); err != nil {
		t.Fatal(err)
	}

	s := sandboxtest.New(t, sandbox.Config{Version: "v0.0.0-lint"})
	for _, doc := range []string{"/_sandbox/openapi.json", "/_sandbox/openapi-control.json"} {
		t.Run(strings.TrimPrefix(doc, "/_sandbox/"), func(t *testing.T) {
			file := filepath.Join(dir, filepath.Base(doc))
			resp, err := http.Get(s.URL + doc)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("GET %s: %d %v", doc, resp.StatusCode, err)
			}
			if err := os.WriteFile(file, raw, 0o644); err != nil {
				t.Fatal(err)
			}
			lint := exec.CommandContext(ctx, cli, "lint", "--config", config, "--format", "json", "--max-problems", "10000", file)
			lint.Dir = dir
			lint.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true")
			out, err := lint.Output()
			var report struct {
				Totals   struct{ Errors, Warnings int }
				Problems []struct {
					RuleID   string `json:"ruleId"`
					Message  string
					Location []struct{ Pointer string }
				}
			}
			if jerr := json.Unmarshal(out, &report); jerr != nil {
				t.Fatalf("redocly lint: %v (%v)\n%s", err, jerr, out)
			}
			for i, p := range report.Problems {
				if i == 20 {
					t.Errorf("... %d more", len(report.Problems)-i)
					break
				}
				where := ""
				if len(p.Location) > 0 {
					where = p.Location[0].Pointer
				}
				t.Errorf("%s: %s (%s)", p.RuleID, p.Message, where)
			}
			if report.Totals.Errors+report.Totals.Warnings != 0 {
				t.Fatalf("%s: %d errors, %d warnings", doc, report.Totals.Errors, report.Totals.Warnings)
			}
		})
	}
}
