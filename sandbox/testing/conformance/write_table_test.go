package conformance

// writeTable is the write-conformance table: one entry per write
// endpoint of the reference, grouped by area; within an endpoint group
// the entries run in this order and share variables.
func writeTable(f *fx) []*wentry {
	var out []*wentry
	for _, part := range [][]*wentry{
		catalogueWrites(f),
		productWrites(f),
		customerWrites(f),
		documentWrites(f),
		marketingWrites(f),
		contentWrites(f),
		logisticsWrites(f),
		systemWrites(f),
		orderWrites(f),
	} {
		out = append(out, part...)
	}
	return out
}
