package scenario

import "time"

// Builtins are the faults every sandbox knows, even without a scenario,
// so a developer can provoke one answer with a single header:
//
//	curl -H 'Service-Sandbox-Fault: rate-limited' ...
//
// A scenario fault with the same name takes precedence.
func Builtins() []Fault {
	slow := Duration(2 * time.Second)
	f := func(name, desc string, fault Fault) Fault {
		fault.Name, fault.Description, fault.Trigger = name, desc, TriggerHeader
		return fault
	}
	return []Fault{
		f("expired-token", "401 expired-token, as if the API access token had expired.", Fault{Respond: &Respond{Status: 401}}),
		f("invalid-token-no-rights", "403 invalid-token-no-rights.", Fault{Respond: &Respond{Status: 403}}),
		f("locked", "423: an identical write request holds the URL's lock.", Fault{Respond: &Respond{Status: 423}}),
		f("too-many-connections", "429 too-many-connections, as a 4th concurrent call of a token gets (no Retry-After: the bucket is not full).", Fault{Respond: &Respond{Status: 429}}),
		f("rate-limited", "The caller's rate bucket is filled: 429 with Retry-After until it leaks.", Fault{FillBucket: true}),
		f("internal-error", "500 internal-error.", Fault{Respond: &Respond{Status: 500}}),
		f("maintenance", "503, without opening a maintenance window.", Fault{Respond: &Respond{Status: 503}}),
		f("close-connection", "The connection is closed without an answer.", Fault{Close: true}),
		f("slow", "The answer comes 2 s late.", Fault{Latency: &slow}),
	}
}
