package eshop

import (
	"strings"
	"testing"
)

// TestCheckModuleName: well-formed names pass, known or not; a known
// module spelled in another case is named, and a malformed name refused.
func TestCheckModuleName(t *testing.T) {
	tests := []struct {
		name, want string // want: "" for accepted, else part of the error
	}{
		{"pricelists", ""},
		{"multipleStocks", ""},
		{"someOtherModule2", ""},
		{"priceLists", `is spelled "pricelists"`},
		{"FOREIGNLANGUAGES", `is spelled "foreignLanguages"`},
		{"", "must be a letter"},
		{"price lists", "must be a letter"},
		{"2stocks", "must be a letter"},
		{strings.Repeat("a", 65), "must be a letter"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckModuleName(tc.name)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestLanguageFollowsModule: language selects a translation only with
// the foreign-languages module; an unknown code is refused either way.
func TestLanguageFollowsModule(t *testing.T) {
	m := &Meta{DefaultLanguage: "cs", Languages: []string{"cs", "en"}}
	for _, tc := range []struct {
		modules []string
		param   string
		want    string
	}{
		{nil, "en", ""},
		{[]string{ModulePriceLists}, "en", ""},
		{[]string{ModuleForeignLanguages}, "en", "en"},
		{[]string{ModuleForeignLanguages}, "cs", ""},
		{[]string{ModuleForeignLanguages}, "", ""},
	} {
		m.Modules = tc.modules
		got, err := m.Language(tc.param)
		if err != nil || got != tc.want {
			t.Fatalf("modules %v, language %q: %q %v, want %q", tc.modules, tc.param, got, err, tc.want)
		}
	}
	for _, mods := range [][]string{nil, {ModuleForeignLanguages}} {
		m.Modules = mods
		if _, err := m.Language("de"); err == nil {
			t.Fatalf("modules %v: an unknown language is accepted", mods)
		}
	}
}
