package tui

import (
	"time"

	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/eshop-sandbox/sandbox/sandbox/core/traffic"
)

// DefaultHistory is how many calls (and webhook attempts) the UI keeps.
const DefaultHistory = 1000

// Options configure the UI.
type Options struct {
	Source  Source  // required: where traffic comes from
	Control Control // nil: actions explain that they are unavailable
	// History bounds the calls, and separately the webhook attempts, kept.
	History int
	// Now is the wall clock for the status bar (tests fix it); the
	// sandbox time shown is Now plus the sandbox clock's offset.
	Now func() time.Time
	// Renderer decides colours; nil uses the terminal's (NO_COLOR off).
	Renderer *lipgloss.Renderer
	// Clipboard receives copied curl commands; Run uses TerminalClipboard
	// (OSC 52, or a file where the terminal cannot take it).
	Clipboard Copier
	// ConfirmQuit, when set, is the question q (and ctrl+c) asks before
	// the UI ends: `sandbox up` asks it when quitting stops a sandbox
	// whose store is in memory. Empty: q quits at once.
	ConfirmQuit string
}

// state is what fills the screen between the tab line and the status bar.
type state int

const (
	stateList    state = iota // a tab's table (with the detail pane in the split view)
	stateDetail               // one row's detail on the whole screen, scrollable
	stateHelp                 // the key bindings
	stateInfo                 // e-shops and their tokens
	stateInput                // the screen below, with a prompt on the last line
	stateConfirm              // the screen below, with the quit question on the last line
)

// prompt is what the input line asks for.
type prompt int

const (
	promptFilter prompt = iota
	promptEmit
	promptClock
	promptApprove
	promptSearch
)

// Model is the root of the UI. Its sub-parts: the tabs (tabs.go), the
// calls table (calls.go), the webhook groups (webhooks.go), the views the
// control plane answers (views.go and one file each), the split view
// (split.go), the detail pane (detail.go), the status bar (statusbar.go),
// help and info (help.go).
type Model struct {
	opts Options
	keys keyMap
	st   Styles

	width, height int
	state         state
	back          state // where help/info/detail/prompt return to
	under         state // what the quit question was asked over
	tab           tab
	split         bool // list and detail together (side by side or stacked)
	focusDetail   bool // in the split view, keys scroll the detail pane
	showControl   bool // the control plane's own calls are listed too
	sorts         [tabCount]sortOrder
	views         [tabCount]viewTable
	viewCur       [tabCount]cursor
	activity      int64 // grows with each call (not the control plane's) and webhook: views refresh after it
	helpTop       int   // first help line shown

	info    traffic.Info
	hasInfo bool
	connErr string
	ended   bool // the source is closed

	hist      *history
	counts    counts
	filter    filter
	paused    bool
	pending   []traffic.Event
	uiDropped int64
	dropped   int64 // last shown total

	callCur, hookCur cursor

	detail     viewport.Model
	shown      subject // the whole-screen detail's row
	paneKey    string  // the subject whose text the viewport holds
	paneWidth  int
	matchQ     string // the body search the matches were found for
	matches    []int  // lines of the pane's text that the body search finds
	matchAt    int
	bodyCache  map[int64]bool // body search answers per row (rows never change)
	bodyCacheQ string

	input      lineInput
	prompt     prompt
	filterPrev string

	flash      string
	flashErr   bool
	flashAt    time.Time
	maintOn    bool
	curlOnExit []string

	frame     string
	renders   int // frames drawn; the frame-rate tests count them
	dirty     bool
	lastClock int64 // the status bar clock's last shown second
}

// counts are the status bar's running totals: everything seen, paused or
// not, retained or not.
type counts struct{ calls, errors, deliveries, failed int64 }

// New builds the UI.
func New(o Options) *Model {
	if o.History <= 0 {
		o.History = DefaultHistory
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	m := &Model{opts: o, keys: newKeyMap(), st: NewStyles(o.Renderer), hist: newHistory(o.History), input: lineInput{limit: 200},
		detail: viewport.New(80, 10), width: 80, height: 24}
	m.callCur.follow, m.hookCur.follow = true, true
	m.split = true
	m.render()
	return m
}

// Init starts reading the source and the frame clock. It makes no call
// of its own, so the traffic shown is only what others (and the user's
// actions) did.
func (m *Model) Init() tea.Cmd { return tea.Batch(m.read(), tick()) }

// CurlOnExit returns the curl commands the user asked to have printed
// when the UI ends.
func (m *Model) CurlOnExit() []string { return m.curlOnExit }

// View implements tea.Model: the last rendered frame. Rendering happens in
// Update at most once per tick (or at once after a key), never per event.
func (m *Model) View() string { return m.frame }

// read takes the next batch from the source.
func (m *Model) read() tea.Cmd {
	src := m.opts.Source
	if src == nil {
		return nil
	}
	return func() tea.Msg {
		ch := src.Items()
		it, ok := <-ch
		if !ok {
			return itemsMsg{closed: true}
		}
		batch := []Item{it}
		for len(batch) < maxBatch {
			select {
			case it, ok := <-ch:
				if !ok {
					return itemsMsg{items: batch, closed: true}
				}
				batch = append(batch, it)
			default:
				return itemsMsg{items: batch}
			}
		}
		return itemsMsg{items: batch}
	}
}

func tick() tea.Cmd {
	return tea.Tick(frameInterval, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.render()
	case itemsMsg:
		m.ingest(msg.items)
		if msg.closed {
			m.ended = true
			m.dirty = true
			return m, nil
		}
		return m, m.read()
	case tickMsg:
		m.onTick()
		return m, tea.Batch(tick(), m.refreshView(false))
	case actionMsg:
		m.onAction(msg)
		m.render()
		return m, m.refreshView(true) // the action may have changed what the view shows
	case viewMsg:
		m.onView(msg)
		m.render()
	case clipboardMsg:
		if msg.err != nil {
			m.setFlash("copy failed: "+msg.err.Error(), true)
		} else {
			m.setFlash("curl command "+msg.where, false)
		}
		m.render()
	case tea.KeyMsg:
		cmd := m.onKey(msg)
		m.render()
		return m, cmd
	}
	return m, nil
}

// ingest applies a batch from the source; while paused, events wait
// (bounded) and only the totals move.
func (m *Model) ingest(items []Item) {
	for _, it := range items {
		switch {
		case it.Info != nil:
			m.info, m.hasInfo, m.connErr = *it.Info, true, ""
		case it.Err != nil:
			m.connErr = it.Err.Error()
		case it.Event != nil:
			m.count(it.Event)
			if m.paused && it.Event.Type != traffic.TypeClock {
				if len(m.pending) >= m.opts.History {
					m.pending = m.pending[1:]
					m.uiDropped++
				}
				m.pending = append(m.pending, *it.Event)
				continue
			}
			m.apply(*it.Event)
		}
	}
	m.dirty = true
}

func (m *Model) count(ev *traffic.Event) {
	switch {
	case ev.Type == traffic.TypeQueued: // not an attempt (yet)
	case ev.Call != nil:
		m.counts.calls++
		if ev.Call.Status >= 400 {
			m.counts.errors++
		}
	case ev.Delivery != nil:
		m.counts.deliveries++
		if !ev.Delivery.Succeeded {
			m.counts.failed++
		}
	}
}

func (m *Model) apply(ev traffic.Event) {
	switch {
	case ev.Call != nil:
		m.hist.addCall(ev.Call)
		if !isControl(ev.Call) {
			m.activity++
		}
	case ev.Delivery != nil:
		m.hist.addAttempt(ev.Delivery, ev.Type == traffic.TypeQueued)
		m.activity++
	case ev.Clock != nil:
		m.info.Offset = ev.Clock.Offset
	}
}

func (m *Model) resume() {
	m.paused = false
	for _, ev := range m.pending {
		m.apply(ev)
	}
	m.pending = nil
}

// onTick redraws when something changed since the last frame: that is
// the frame-rate cap.
func (m *Model) onTick() {
	now := m.opts.Now()
	if d := m.droppedTotal(); d != m.dropped {
		m.dropped, m.dirty = d, true
	}
	if m.flash != "" && now.Sub(m.flashAt) > flashTTL {
		m.flash, m.dirty = "", true
	}
	if s := now.Unix(); s != m.lastClock {
		m.lastClock, m.dirty = s, true
	}
	if m.dirty {
		m.render()
	}
}

func (m *Model) droppedTotal() int64 {
	d := m.uiDropped
	if m.opts.Source != nil {
		d += m.opts.Source.Dropped()
	}
	return d
}

func (m *Model) setFlash(s string, isErr bool) {
	m.flash, m.flashErr, m.flashAt = s, isErr, m.opts.Now()
}
