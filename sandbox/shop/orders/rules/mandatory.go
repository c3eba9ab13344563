package rules

import (
	"sort"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// Mandatory-field settings of an e-shop (GET /api/eshop/customer-fields):
// each field is "required", "optional" or "hidden".
const Required = "required"

// fieldPaths maps the settings' sections and names to the request fields
// they govern.
var fieldPaths = map[string]map[string]string{
	"contactInfo":     {"email": "email", "phone": "phone", "birthday": "birthDate"},
	"billingInfo":     {"companyId": "billingAddress.companyId", "taxId": "billingAddress.taxId", "vatId": "billingAddress.vatId"},
	"billingAddress":  nil, // same names under data.billingAddress
	"deliveryAddress": nil, // same names under data.deliveryAddress
}

// MissingMandatory lists the request fields (as "data.billingAddress.city")
// that the e-shop's settings make mandatory and the order lacks, sorted.
// Addresses must be normalised first (NormalizeStreet), so a street given
// as streetWithNr counts. Delivery-address fields count only when the
// order has a delivery address of its own (one is sent and addressesEqual
// is not true).
func MissingMandatory(settings map[string]any, data map[string]any) []string {
	var missing []string
	ownDelivery := data["deliveryAddress"] != nil && data["addressesEqual"] != true
	for section, names := range fieldPaths {
		fields, _ := settings[section].(map[string]any)
		for name, rule := range fields {
			if rule != Required {
				continue
			}
			path := section + "." + name
			if names != nil {
				p, ok := names[name]
				if !ok {
					continue
				}
				path = p
			}
			if section == "deliveryAddress" && !ownDelivery {
				continue
			}
			if strings.TrimSpace(Text(lookup(data, path))) == "" {
				missing = append(missing, "data."+path)
			}
		}
	}
	sort.Strings(missing)
	return missing
}

// MandatoryErrors turns missing fields into one 400 error each.
func MandatoryErrors(missing []string) []error {
	out := make([]error, len(missing))
	for i, p := range missing {
		out[i] = sandbox.Invalid(p, "Field %s is mandatory in this e-shop (GET /api/eshop/customer-fields); send it, or suppressHistoricalMandatoryFields=true for a historical order.", p)
	}
	return out
}

func lookup(m map[string]any, path string) any {
	var cur any = m
	for _, step := range strings.Split(path, ".") {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = mm[step]
	}
	return cur
}

// MissingMandatorySent is MissingMandatory for a partial change (the
// order header change): of the mandatory fields the order lacks once the
// change is applied (order), only those the change itself sends, empty
// or null, are listed. A field the change leaves alone is not its
// concern, so a historical order created without a mandatory field can
// still have its phone changed.
func MissingMandatorySent(settings, order, change map[string]any) []string {
	sent := map[string]bool{}
	for k, v := range change {
		sent["data."+k] = true
		addr, ok := v.(map[string]any)
		if !ok {
			continue
		}
		for f := range addr {
			sent["data."+k+"."+f] = true
		}
		if _, ok := addr["streetWithNr"]; ok {
			sent["data."+k+".street"] = true
			sent["data."+k+".houseNumber"] = true
		}
	}
	var out []string
	for _, p := range MissingMandatory(settings, order) {
		if sent[p] {
			out = append(out, p)
		}
	}
	return out
}
