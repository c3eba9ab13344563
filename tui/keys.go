package tui

import "github.com/charmbracelet/bubbles/key"

// keyMap is every key binding; the help screen lists them from here, so
// the two never disagree.
type keyMap struct {
	Up, Down, PageUp, PageDown, Oldest, Newest key.Binding
	Detail, Back, Switch, Calls, Webhooks      key.Binding
	Help, Info, Quit                           key.Binding
	Filter, Status, Eshop, Method, Clear       key.Binding
	Pause, Copy, PrintOnExit                   key.Binding
	Replay, Emit, Clock, Approve, Maintenance  key.Binding
}

func newKeyMap() keyMap {
	b := func(help string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(displayKeys(keys), help))
	}
	return keyMap{
		Up:       b("previous row / scroll up", "up", "k"),
		Down:     b("next row / scroll down", "down", "j"),
		PageUp:   b("page up", "pgup", "ctrl+u"),
		PageDown: b("page down", "pgdown", "ctrl+d"),
		Oldest:   b("oldest row", "home", "g"),
		Newest:   b("jump to newest and follow", "end", "G"),
		Detail:   b("open the detail pane", "enter"),
		Back:     b("back / clear the filter", "esc"),
		Switch:   b("switch calls / webhooks", "tab"),
		Calls:    b("calls view", "1"),
		Webhooks: b("webhooks view", "2"),
		Help:     b("this help", "?"),
		Info:     b("e-shops and their tokens", "i"),
		Quit:     b("quit", "q", "ctrl+c"),

		Filter: b("filter by text", "/"),
		Status: b("filter by status class", "s"),
		Eshop:  b("filter by e-shop", "e"),
		Method: b("filter by method", "m"),
		Clear:  b("clear every filter", "c"),

		Pause:       b("pause / resume the live feed", "p", " "),
		Copy:        b("copy the call as curl (clipboard)", "y"),
		PrintOnExit: b("print the call as curl on exit", "Y"),

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

// helpGroups is the help screen's layout.
func (k keyMap) helpGroups() []helpGroup {
	return []helpGroup{
		{"Move", []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Oldest, k.Newest, k.Detail, k.Back, k.Switch, k.Calls, k.Webhooks}},
		{"Filter", []key.Binding{k.Filter, k.Status, k.Eshop, k.Method, k.Clear}},
		{"Feed", []key.Binding{k.Pause, k.Copy, k.PrintOnExit, k.Info, k.Help, k.Quit}},
		{"Control plane", []key.Binding{k.Replay, k.Emit, k.Clock, k.Approve, k.Maintenance}},
	}
}

type helpGroup struct {
	title    string
	bindings []key.Binding
}
