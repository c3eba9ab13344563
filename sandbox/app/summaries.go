package app

import "github.com/eshop-sandbox/sandbox/sandbox/core/api"

// outsideSummaries describe control routes whose packages' route tables
// are being reworked elsewhere (traffic's recorder.go, jobs); they move
// into those tables' Summary fields when that work lands.
var outsideSummaries = map[string]string{
	"sandbox.traffic":        "Recorded calls and webhook attempts as JSON (?limit=N); ?follow=1 streams them as Server-Sent Events",
	"sandbox.traffic.har":    "Recorded calls and webhook attempts as HAR 1.2, for a browser's developer tools",
	"sandbox.jobs.fail-next": "Make the next job fail ({\"mode\":\"fail\"}) or stall into the 3-hour automatic failure ({\"mode\":\"stall\"})",
}

// summarized fills the Summary of routes that have none from
// outsideSummaries.
func summarized(routes []api.Route) []api.Route {
	for i := range routes {
		if routes[i].Summary == "" {
			routes[i].Summary = outsideSummaries[routes[i].Operation]
		}
	}
	return routes
}
