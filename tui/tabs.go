package tui

// tab is which list the screen shows: the live calls and webhooks, or
// one of the views the control plane answers (report, faults, outbox,
// jobs, installs).
type tab int

const (
	tabCalls tab = iota
	tabWebhooks
	tabReport
	tabFaults
	tabOutbox
	tabJobs
	tabInstalls
	tabCount
)

// tabNames label the tabs, in key order (1 to 7).
var tabNames = [tabCount]string{"Calls", "Webhooks", "Report", "Faults", "Outbox", "Jobs", "Installs"}

// String names the tab.
func (t tab) String() string { return tabNames[t] }

// live reports whether the tab lists the traffic feed (as opposed to a
// view fetched from the control plane).
func (t tab) live() bool { return t == tabCalls || t == tabWebhooks }

// switchTab shows another tab, the list having the keys (the caller
// fetches a control-plane view with refreshView).
func (m *Model) switchTab(t tab) {
	m.tab = t
	m.focusDetail = false
}
