package rules

import (
	"encoding/json"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// TestFlagsTake reads a creation flag from the body, at the top or in
// data, as a boolean or its string form; anything else is a 400 naming
// where it was sent. A flag the query set stays set, and a body flag is
// removed so it is not stored with the order.
func TestFlagsTake(t *testing.T) {
	tests := []struct {
		name     string
		query    bool
		body     string
		want     bool
		instance string // of the error, when refused
	}{
		{"absent", false, `{"data":{}}`, false, ""},
		{"at the top", false, `{"suppressEmailSending":true,"data":{}}`, true, ""},
		{"in data", false, `{"data":{"suppressEmailSending":true}}`, true, ""},
		{"string true", false, `{"data":{"suppressEmailSending":"TRUE"}}`, true, ""},
		{"string 1", false, `{"data":{"suppressEmailSending":"1"}}`, true, ""},
		{"string false", false, `{"data":{"suppressEmailSending":"0"}}`, false, ""},
		{"null", false, `{"data":{"suppressEmailSending":null}}`, false, ""},
		{"the query wins over false", true, `{"data":{"suppressEmailSending":false}}`, true, ""},
		{"a word", false, `{"data":{"suppressEmailSending":"yes"}}`, false, "data.suppressEmailSending"},
		{"a number", false, `{"suppressEmailSending":1,"data":{}}`, false, "suppressEmailSending"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var body map[string]any
			if err := json.Unmarshal([]byte(tc.body), &body); err != nil {
				t.Fatal(err)
			}
			f := Flags{FlagEmails: tc.query}
			err := f.Take(body, FlagEmails)
			if tc.instance != "" {
				if err == nil || sandbox.AsError(err).Instance != tc.instance {
					t.Fatalf("error %v, want one naming %s", err, tc.instance)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if f[FlagEmails] != tc.want {
				t.Errorf("flag %v, want %v", f[FlagEmails], tc.want)
			}
			data, _ := body["data"].(map[string]any)
			if _, ok := body[FlagEmails]; ok {
				t.Error("the flag stayed at the top of the body")
			}
			if _, ok := data[FlagEmails]; ok {
				t.Error("the flag stayed in data")
			}
		})
	}
}
