package crud_test

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// paramKind is one of the parameter kinds whose identifiers are given in
// the selected language (spec, common query parameters, rule 3), with
// the fields its endpoints use.
type paramKind struct {
	name, file, base, key string
	id, valueID           string
	texts                 []string // translatable texts of the parameter
	valueText, valueShown string   // a value's text in the request and in the answer
	newValue              string   // one entry of paramValues
}

var paramKinds = []paramKind{
	{name: "surcharge", file: "surcharge-parameters", base: "/api/products/surcharge-parameters/", key: "surchargeParameter",
		id: "code", valueID: "valueIndex", texts: []string{"name", "displayName", "description"},
		valueText: "name", valueShown: "description", newValue: `{"name":"Extra","price":"10.00"}`},
	{name: "filtering", file: "filtering-parameters", base: "/api/products/filtering-parameters/",
		id: "code", valueID: "valueIndex", texts: []string{"name", "displayName", "description"},
		valueText: "name", valueShown: "name", newValue: `{"name":"Extra"}`},
	{name: "variant", file: "variant-parameters", base: "/api/products/variant-parameters/",
		id: "paramIndex", valueID: "rawValue", texts: []string{"paramName", "displayName"},
		valueText: "paramValue", valueShown: "paramValue", newValue: `{"paramValue":"Extra"}`},
}

// record is the parameter of an answer.
func (p paramKind) record(r gjson.Result) gjson.Result {
	if p.key == "" {
		return r.Get("data")
	}
	return r.Get("data." + p.key)
}

// TestIdentifiersInSelectedLanguage: for surcharge, filtering and
// variant parameters and their values, every endpoint addressing one by
// its identifier reads that identifier in the selected language. A PATCH
// with language=en writes the English texts and identifier and leaves the
// default language untouched (rule 2); afterwards, with language=en only
// the English identifier finds the record, and without language only the
// default one does (rule 3).
func TestIdentifiersInSelectedLanguage(t *testing.T) {
	for _, p := range paramKinds {
		t.Run(p.name, func(t *testing.T) {
			e := start(t)
			code := fixture(t, p.file, "0."+p.id)
			val := fixture(t, p.file, "0.values.0."+p.valueID)
			enCode, enVal := code+"-en", val+"-en"
			before := p.record(e.must(t, 200, "GET", p.base+code, nil)).Raw

			// Rule 2: the translation gets the texts and the identifier.
			patch := map[string]any{p.id: enCode}
			for _, f := range p.texts {
				patch[f] = "EN " + f
			}
			got := p.record(e.must(t, 200, "PATCH", p.base+code+"?language=en", map[string]any{"data": patch}))
			if got.Get(p.id).String() != enCode {
				t.Fatalf("PATCH answer in English: %s", got.Raw)
			}
			for _, f := range p.texts {
				if got.Get(f).String() != "EN "+f {
					t.Fatalf("PATCH answer lacks the English %s: %s", f, got.Raw)
				}
			}
			if now := p.record(e.must(t, 200, "GET", p.base+code, nil)).Raw; now != before {
				t.Fatalf("default language changed by a PATCH with language:\nbefore %s\nafter  %s", before, now)
			}

			// The value's identifier and text in English, through the
			// English parameter code.
			vpatch := map[string]any{p.valueID: enVal, p.valueText: "EN value"}
			e.must(t, 200, "PATCH", p.base+enCode+"/"+val+"?language=en", map[string]any{"data": vpatch})
			en := p.record(e.must(t, 200, "GET", p.base+enCode+"?language=en", nil))
			if v := en.Get("values.0"); v.Get(p.valueID).String() != enVal || v.Get(p.valueShown).String() != "EN value" {
				t.Fatalf("English value: %s", v.Raw)
			}
			if now := p.record(e.must(t, 200, "GET", p.base+code, nil)).Raw; now != before {
				t.Fatalf("default language changed by a value PATCH with language:\nbefore %s\nafter  %s", before, now)
			}

			calls := []struct {
				method, path, body string
				want               int
			}{
				{"GET", p.base + enCode + "?language=en", "", 200},
				{"GET", p.base + code + "?language=en", "", 404},
				{"GET", p.base + code, "", 200},
				{"GET", p.base + enCode, "", 404},
				{"PATCH", p.base + enCode + "?language=en", `{"displayName":"EN again"}`, 200},
				{"PATCH", p.base + code + "?language=en", `{"displayName":"EN again"}`, 404},
				{"PATCH", p.base + enCode, `{"priority":7}`, 404},
				{"PATCH", p.base + enCode + "/" + enVal + "?language=en", `{"` + p.valueText + `":"EN value"}`, 200},
				{"PATCH", p.base + enCode + "/" + val + "?language=en", `{"` + p.valueText + `":"EN value"}`, 404},
				{"PATCH", p.base + code + "/" + enVal + "?language=en", `{"` + p.valueText + `":"EN value"}`, 404},
				{"PATCH", p.base + code + "/" + val, `{}`, 200},
				{"PATCH", p.base + code + "/" + enVal, `{}`, 404},
				{"POST", p.base + code + "?language=en", `{"paramValues":[` + p.newValue + `]}`, 404},
				{"POST", p.base + enCode, `{"paramValues":[` + p.newValue + `]}`, 404},
				{"POST", p.base + enCode + "?language=en", `{"paramValues":[` + p.newValue + `]}`, 201},
				{"DELETE", p.base + enCode + "/" + val + "?language=en", "", 404},
				{"DELETE", p.base + code + "/" + enVal, "", 404},
				{"DELETE", p.base + enCode + "/" + enVal + "?language=en", "", 200},
				{"DELETE", p.base + code + "?language=en", "", 404},
				{"DELETE", p.base + enCode, "", 404},
				{"DELETE", p.base + enCode + "?language=en", "", 200},
				{"GET", p.base + code, "", 404},
			}
			for _, c := range calls {
				var body any
				if c.body != "" {
					body = data(c.body)
				}
				r := e.call(t, c.method, c.path, body)
				if r.Status != c.want {
					t.Fatalf("%s %s: %d, want %d: %s", c.method, c.path, r.Status, c.want, r.Body)
				}
				if c.want == 404 && !strings.Contains(string(r.Body), `"errorCode":"not-found"`) {
					t.Fatalf("%s %s: 404 without the envelope: %s", c.method, c.path, r.Body)
				}
			}
		})
	}
}

// TestTranslatedIdentifierRules: a translated identifier follows the
// rules of a default one: unique within its language (409), and a
// surcharge parameter's code URL-friendly and its name not empty (400), with nothing stored.
func TestTranslatedIdentifierRules(t *testing.T) {
	e := start(t)
	base := "/api/products/surcharge-parameters/"
	first := fixture(t, "surcharge-parameters", "0.code")
	second := fixture(t, "surcharge-parameters", "1.code")
	e.must(t, 200, "PATCH", base+first+"?language=en", data(`{"code":"wrap-en"}`))
	for _, tc := range []struct {
		body, instance string
		want           int
	}{
		{`{"code":"wrap-en","name":"Taken"}`, "code", 409},
		{`{"code":"` + first + `x","name":""}`, "name", 400},
		{`{"code":"Not OK"}`, "code", 400},
		{`{"code":""}`, "code", 400},
	} {
		r := e.call(t, "PATCH", base+second+"?language=en", data(tc.body))
		if r.Status != tc.want || len(r.Env.Errors) != 1 || r.Env.Errors[0].Instance != tc.instance {
			t.Fatalf("%s: %d %s", tc.body, r.Status, r.Body)
		}
	}
	en := e.must(t, 200, "GET", base+second+"?language=en", nil).Get("data.surchargeParameter")
	if en.Get("code").String() != second || en.Get("name").String() == "Taken" {
		t.Fatalf("a refused PATCH stored something: %s", en.Raw)
	}
	// A null code keeps the translated one.
	e.must(t, 200, "PATCH", base+"wrap-en?language=en", data(`{"code":null,"displayName":"Wrapped"}`))
	if c := e.must(t, 200, "GET", base+"wrap-en?language=en", nil).Get("data.surchargeParameter.code").String(); c != "wrap-en" {
		t.Fatalf("code after a null code: %q", c)
	}
}
