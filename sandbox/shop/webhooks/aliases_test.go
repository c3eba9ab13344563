package webhooks

import (
	"os"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/schemas"
)

// TestAliases: every alias names an event of the reference and is not one
// itself, Canonical maps it (and leaves other names alone), CheckEvent
// accepts it, and a catalogue that breaks either rule stops the start.
func TestAliases(t *testing.T) {
	cat, err := schemas.LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	ref := NewCatalogue(cat.Events)
	if err := ref.CheckAliases(); err != nil {
		t.Fatal(err)
	}
	for spec, target := range Aliases {
		if Canonical(spec) != target || Canonical(target) != target {
			t.Errorf("Canonical(%s) = %s, Canonical(%s) = %s", spec, Canonical(spec), target, Canonical(target))
		}
		if err := ref.CheckEvent("data[0].event", spec); err != nil {
			t.Errorf("CheckEvent(%s): %v", spec, err)
		}
		without := NewCatalogue(nil)
		for k := range ref {
			if k != target {
				without[k] = true
			}
		}
		if without.CheckAliases() == nil {
			t.Errorf("a catalogue without %s passes CheckAliases", target)
		}
		with := NewCatalogue([]string{spec, target})
		if with.CheckAliases() == nil {
			t.Errorf("a catalogue listing %s itself passes CheckAliases", spec)
		}
	}
	if Canonical("order:create") != "order:create" {
		t.Error("Canonical changes a reference name")
	}
}

// TestAliasesInREADME: the Webhooks section of docs/api-behaviour.md
// (the README's reference on the API) lists every pair, so an add-on
// author knows which name the notifications carry.
func TestAliasesInREADME(t *testing.T) {
	raw, err := os.ReadFile("../../../docs/api-behaviour.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(raw), "\n## Webhooks\n")
	if !ok {
		t.Fatal("docs/api-behaviour.md has no ## Webhooks section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	for spec, ref := range Aliases {
		row := "| `" + spec + "` | `" + ref + "` |"
		if !strings.Contains(section, row) {
			t.Errorf("the Webhooks section of docs/api-behaviour.md has no row %s", row)
		}
	}
}
