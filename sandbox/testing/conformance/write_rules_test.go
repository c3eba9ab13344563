package conformance

// writeRules are the write endpoints whose conformance call answers a
// documented status other than the success status, each with the rule
// of the spec (or the reference) that requires it. An entry may document
// another status (wentry.answers) only with a rule here.
var writeRules = map[string]string{
	"CreateAndEditHtmlCodes": "200, not 201: the call creates or replaces the snippet at each location (README, statuses: 201 only for a POST that creates)",
}
