package seed

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/storefront"
)

// readEshop derives the sandbox's summary of an e-shop from eshop.json
// (the data of GET /api/eshop), and checks its storefront look.
func (l *Loader) readEshop(id int, file string, raw []byte) (*eshop.Meta, error) {
	if !isObject(raw) {
		return nil, &Error{File: l.path(file), Line: 1, Reason: "must be a JSON object (the data of GET /api/eshop)"}
	}
	doc := gjson.ParseBytes(raw)
	if got := doc.Get("contactInformation.eshopId"); got.Exists() && int(got.Int()) != id {
		return nil, &Error{File: l.path(file), Line: lineOf(raw, "eshopId"), Reason: fmt.Sprintf("contactInformation.eshopId is %d but the folder says %d", got.Int(), id)}
	}
	if _, err := storefront.ReadLook(raw); err != nil {
		return nil, &Error{File: l.path(file), Line: lineOf(raw, storefront.LookKey), Reason: err.Error()}
	}
	m := &eshop.Meta{ID: id, Name: doc.Get("contactInformation.eshopName").String()}
	for _, lang := range doc.Get("languages").Array() {
		code := lang.Get("code").String()
		if code == "" {
			continue
		}
		m.Languages = append(m.Languages, code)
		if lang.Get("isDefault").Bool() {
			m.DefaultLanguage = code
		}
	}
	if v := doc.Get("settings.eshopLanguage").String(); v != "" {
		m.DefaultLanguage = v
	}
	if m.DefaultLanguage == "" && len(m.Languages) > 0 {
		m.DefaultLanguage = m.Languages[0]
	}
	if m.DefaultLanguage == "" {
		return nil, &Error{File: l.path(file), Line: 1, Reason: "no language: set languages[] (one isDefault) or settings.eshopLanguage"}
	}
	if len(m.Languages) == 0 {
		m.Languages = []string{m.DefaultLanguage}
	}
	m.Modules = []string{}
	for i, mod := range doc.Get("activeModules").Array() {
		name := mod.Get("name").String()
		if err := eshop.CheckModuleName(name); err != nil {
			return nil, &Error{File: l.path(file), Line: lineAt(raw, mod.Index), Reason: fmt.Sprintf("activeModules[%d]: %v", i, err)}
		}
		if m.HasModule(name) {
			return nil, &Error{File: l.path(file), Line: lineAt(raw, mod.Index), Reason: fmt.Sprintf("activeModules[%d]: module %s is listed twice", i, name)}
		}
		m.Modules = append(m.Modules, name)
	}
	for _, c := range doc.Get("currencies").Array() {
		code := c.Get("code").String()
		if code == "" {
			continue
		}
		m.Currencies = append(m.Currencies, code)
		if c.Get("isDefault").Bool() && m.DefaultCurrency == "" {
			m.DefaultCurrency = code
		}
	}
	if len(m.Currencies) == 0 {
		return nil, &Error{File: l.path(file), Line: 1, Reason: "no currencies[] with a code"}
	}
	if m.DefaultCurrency == "" {
		m.DefaultCurrency = m.Currencies[0]
	}
	return m, nil
}

// lineOf finds the line of the first occurrence of a key, for messages
// about a value read with gjson.
func lineOf(raw []byte, key string) int {
	i := strings.Index(string(raw), `"`+key+`"`)
	if i < 0 {
		return 1
	}
	return lineAt(raw, i)
}
