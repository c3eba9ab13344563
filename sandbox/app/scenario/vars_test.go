package scenario

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/schemas"
)

// TestSchemaNamesTheAddonEnvironment: the schema's description of the
// addon section (what editors show while a scenario is written) names
// every variable the runner puts in the add-on command's environment.
func TestSchemaNamesTheAddonEnvironment(t *testing.T) {
	raw, err := schemas.FS.ReadFile(SchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Defs map[string]struct {
			Description string `json:"description"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	desc := s.Defs["addon"].Description
	_, env, ok := strings.Cut(desc, "The command gets")
	if !ok {
		t.Fatalf("the addon section's description does not say what the command gets: %q", desc)
	}
	for _, v := range RunnerVars {
		if !strings.Contains(env, v+",") && !strings.Contains(env, v+" ") {
			t.Errorf("the addon section's description does not name %s among the command's environment", v)
		}
	}
}
