package eshop

import (
	"fmt"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
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

// TestSetModules: the summary and GET /api/eshop's activeModules change
// together, titles are kept or filled in, and a summary stored without
// modules (a data file seeded by an older sandbox) reads them from
// activeModules.
func TestSetModules(t *testing.T) {
	st, err := store.Open(store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	err = st.Update(func(tx *store.Tx) error {
		if _, err := tx.Put(store.Global, Collection, "7", []byte(`{"eshopId":7,"name":"old","defaultLanguage":"cs","languages":["cs","en"],"foreignLanguages":true}`)); err != nil {
			return err
		}
		_, err := tx.Put(7, InfoCollection, "info", []byte(`{"activeModules":[{"name":"foreignLanguages","title":"Cizí jazyky"},{"name":"bazaar","title":"Bazar"}],"trial":false,"n":1.50}`))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	err = st.Update(func(tx *store.Tx) error {
		m, err := Get(tx, 7)
		if err != nil {
			return err
		}
		if !m.ForeignLanguages() || !m.HasModule("bazaar") || m.HasModule(ModulePriceLists) {
			t.Fatalf("legacy summary: modules %v", m.Modules)
		}
		out, err := SetModules(tx, 7, []string{"bazaar", ModulePriceLists, "ownThing"})
		if err != nil {
			return err
		}
		want := []ActiveModule{{"bazaar", "Bazar"}, {ModulePriceLists, "Price lists"}, {"ownThing", "ownThing"}}
		if fmt.Sprint(out) != fmt.Sprint(want) {
			t.Fatalf("SetModules = %v, want %v", out, want)
		}
		m, err = Get(tx, 7)
		if err != nil {
			return err
		}
		if m.ForeignLanguages() || !m.HasModule(ModulePriceLists) || len(m.Modules) != 3 {
			t.Fatalf("summary after SetModules: %v", m.Modules)
		}
		raw, err := tx.Get(7, InfoCollection, "info")
		if err != nil {
			return err
		}
		if !strings.Contains(string(raw), `"n":1.50`) || !strings.Contains(string(raw), `{"name":"ownThing","title":"ownThing"}`) {
			t.Fatalf("info document %s", raw)
		}
		for _, bad := range [][]string{{"bazaar", "bazaar"}, {"price lists"}, {"Bazaar"}} {
			if _, err := SetModules(tx, 7, bad); err == nil {
				t.Fatalf("SetModules(%v) accepted", bad)
			}
		}
		if _, err := SetModules(tx, 8, nil); err == nil {
			t.Fatal("SetModules of an unknown e-shop accepted")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
