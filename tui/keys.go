package tui

import "github.com/charmbracelet/bubbles/key"

// keyMap is every key binding; the help screen lists them from here, so
// the two never disagree.
type keyMap struct {
	Switch, SwitchBack, Calls, Webhooks, Report, Faults, Outbox, Jobs, Installs, Split, Refresh key.Binding
	Up, Down, PageUp, PageDown, Oldest, Newest, Detail, Back, NextMatch, PrevMatch              key.Binding
	Filter, Search, Status, Eshop, Method, ControlPlane, Clear, Sort, SortReverse               key.Binding
	Pause, Copy, PrintOnExit, Info, Help, Quit                                                  key.Binding
	Replay, Emit, Clock, Approve, Maintenance                                                   key.Binding
}

func newKeyMap() keyMap {
	b := func(help string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(displayKeys(keys), help))
	}
	return keyMap{
		Switch:     b("next view", "tab"),
		SwitchBack: b("previous view", "shift+tab"),
		Calls:      b("calls", "1"),
		Webhooks:   b("webhooks (queued, retrying, sent)", "2"),
		Report:     b("contract report", "3"),
		Faults:     b("faults in force", "4"),
		Outbox:     b("e-mail outbox", "5"),
		Jobs:       b("asynchronous jobs", "6"),
		Installs:   b("add-on installs", "7"),
		Split:      b("split view on / off", "v"),
		Refresh:    b("read the view again now", "R"),

		Up:        b("previous row / scroll up", "up", "k"),
		Down:      b("next row / scroll down", "down", "j"),
		PageUp:    b("page up", "pgup", "ctrl+u"),
		PageDown:  b("page down", "pgdown", "ctrl+d"),
		Oldest:    b("first row", "home", "g"),
		Newest:    b("last row, and follow", "end", "G"),
		Detail:    b("detail (scroll it in the split view)", "enter"),
		Back:      b("back / clear the filter", "esc"),
		NextMatch: b("next body match in the detail", "n"),
		PrevMatch: b("previous body match", "N"),

		Filter:       b("filter rows: text !not ~regex", "/"),
		Search:       b("search the bodies (same syntax)", "b"),
		Status:       b("filter by status class", "s"),
		Eshop:        b("filter by e-shop", "e"),
		Method:       b("filter by method", "m"),
		ControlPlane: b("show / hide control-plane calls", "a"),
		Clear:        b("clear every filter", "c"),
		Sort:         b("sort by the next column", "o"),
		SortReverse:  b("reverse the sort", "O"),

		Pause:       b("pause / resume the live feed", "p", " "),
		Copy:        b("copy the call as curl", "y"),
		PrintOnExit: b("print the call as curl on exit", "Y"),
		Info:        b("e-shops and their tokens", "i"),
		Help:        b("this help", "?"),
		Quit:        b("quit", "q", "ctrl+c"),

		Replay:      b("replay the selected webhook", "r"),
		Emit:        b("emit an event", "E"),
		Clock:       b("advance the sandbox clock", "+"),
		Approve:     b("approve an add-on's pending endpoints", "A"),
		Maintenance: b("toggle maintenance mode", "M"),
	}
}

// displayKeys names keys as people read them.
func displayKeys(keys []string) string {
	out := ""
	for i, k := range keys {
		switch k {
		case "up":
			k = "↑"
		case "down":
			k = "↓"
		case " ":
			k = "space"
		}
		if i > 0 {
			out += "/"
		}
		out += k
	}
	return out
}

// helpGroups is the help screen's layout; the first two groups fill the
// left column on wide terminals.
func (k keyMap) helpGroups() []helpGroup {
	return []helpGroup{
		{"Views", []key.Binding{k.Switch, k.SwitchBack, k.Calls, k.Webhooks, k.Report, k.Faults, k.Outbox, k.Jobs, k.Installs, k.Split, k.Refresh}},
		{"Move", []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Oldest, k.Newest, k.Detail, k.Back, k.NextMatch, k.PrevMatch}},
		{"Filter and sort", []key.Binding{k.Filter, k.Search, k.Status, k.Eshop, k.Method, k.ControlPlane, k.Clear, k.Sort, k.SortReverse}},
		{"Feed", []key.Binding{k.Pause, k.Copy, k.PrintOnExit, k.Info, k.Help, k.Quit}},
		{"Control plane", []key.Binding{k.Replay, k.Emit, k.Clock, k.Approve, k.Maintenance}},
	}
}

type helpGroup struct {
	title    string
	bindings []key.Binding
}
