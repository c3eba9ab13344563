package conformance

// buildTable is the valid request of every reference endpoint, from the
// fixtures of e-shop 1001. hook is a loopback URL that accepts webhook
// notifications (asynchronous endpoints need job:finished registered).
func buildTable(f *fx, hook string) map[string]*entry {
	out := map[string]*entry{}
	for _, part := range [][]*entry{
		catalogueTable(f),
		productPartsTable(f),
		parameterTable(f),
		customerTable(f),
		documentTable(f),
		marketingTable(f),
		contentTable(f),
		logisticsTable(f),
		orderTable(f),
		systemTable(f, hook),
		asyncTable(f, hook),
	} {
		for _, en := range part {
			if _, dup := out[en.op]; dup {
				panic("conformance table: " + en.op + " twice")
			}
			out[en.op] = en
		}
	}
	return out
}

// async is an asynchronous endpoint's entry: job:finished is registered
// first (spec, Events rule 1), the answer holds the job id, and the job
// detail shows the job.
func async(op, hook string, kv ...string) *entry {
	return e(op, kv...).
		first("POST", "/api/webhooks", map[string]any{"data": []any{map[string]any{"event": "job:finished", "url": hook + "/" + op}}}).
		want("data.jobId").
		then("/api/system/jobs/{@data.jobId}", "data.job.jobId={@data.jobId}")
}
