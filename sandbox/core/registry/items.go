package registry

// productListItem adds the list-only field mainImage: the representative
// image, i.e. the first of the product's images (spec, "Product images",
// rule 3).
func productListItem(p map[string]any) map[string]any {
	var main any
	if imgs, ok := p["images"].([]any); ok && len(imgs) > 0 {
		main = imgs[0]
	}
	p["mainImage"] = main
	return p
}

// orderListItem adds the list-only fields taken from the billing address
// and the customer's remark.
func orderListItem(o map[string]any) map[string]any {
	if ba, ok := o["billingAddress"].(map[string]any); ok {
		o["fullName"] = ba["fullName"]
		o["company"] = ba["company"]
	}
	if n, ok := o["notes"].(map[string]any); ok {
		o["remark"] = n["customerRemark"]
	}
	return o
}

// customerListItem adds the list-only fields taken from the billing
// address.
func customerListItem(c map[string]any) map[string]any {
	if ba, ok := c["billingAddress"].(map[string]any); ok {
		c["billFullName"] = ba["fullName"]
		c["billCompany"] = ba["company"]
	}
	return c
}

// salesChannelListItem lists a sales channel by its salesChannel part:
// the stored record is the detail (salesChannel plus the onlineStore,
// inStore or marketplace part of its type).
func salesChannelListItem(c map[string]any) map[string]any {
	if sc, ok := c["salesChannel"].(map[string]any); ok {
		return sc
	}
	return c
}
