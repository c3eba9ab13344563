package tui

import (
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// onKey routes a key press by state.
func (m *Model) onKey(k tea.KeyMsg) tea.Cmd {
	switch m.state {
	case stateInput:
		return m.onInputKey(k)
	case stateConfirm:
		return m.onConfirmKey(k)
	}
	switch {
	case key.Matches(k, m.keys.Quit):
		return m.quit()
	case key.Matches(k, m.keys.Help):
		m.toggle(stateHelp)
		return nil
	case key.Matches(k, m.keys.Info):
		m.toggle(stateInfo)
		return nil
	}
	switch m.state {
	case stateHelp, stateInfo:
		m.onOverlayKey(k)
		return nil
	case stateDetail:
		return m.onDetailKey(k)
	}
	if m.split && m.focusDetail {
		return m.onDetailKey(k)
	}
	return m.onListKey(k)
}

// toggle opens an overlay (help, info) or closes it again.
func (m *Model) toggle(s state) {
	if m.state == s {
		m.state = m.back
		return
	}
	if m.state == stateList || m.state == stateDetail {
		m.back = m.state
	}
	m.state = s
	m.helpTop = 0
}

// onOverlayKey closes help or info, and scrolls help.
func (m *Model) onOverlayKey(k tea.KeyMsg) {
	switch {
	case key.Matches(k, m.keys.Back):
		m.state = m.back
	case key.Matches(k, m.keys.Up):
		m.helpTop--
	case key.Matches(k, m.keys.Down):
		m.helpTop++
	case key.Matches(k, m.keys.PageUp):
		m.helpTop -= m.bodyHeight() - 2
	case key.Matches(k, m.keys.PageDown):
		m.helpTop += m.bodyHeight() - 2
	}
	m.helpTop = max(0, m.helpTop) // helpLines caps it at the end
}

func (m *Model) onListKey(k tea.KeyMsg) tea.Cmd {
	seqs := m.rowSeqs()
	cur := m.cur()
	page := max(1, m.listHeight()-2)
	switch {
	case key.Matches(k, m.keys.Up):
		cur.move(seqs, -1)
	case key.Matches(k, m.keys.Down):
		cur.move(seqs, 1)
	case key.Matches(k, m.keys.PageUp):
		cur.move(seqs, -page)
	case key.Matches(k, m.keys.PageDown):
		cur.move(seqs, page)
	case key.Matches(k, m.keys.Oldest):
		cur.oldest(seqs)
	case key.Matches(k, m.keys.Newest):
		cur.newest()
	case key.Matches(k, m.keys.Detail):
		if m.split {
			m.focusDetail = m.selectedSubject().key != ""
		} else {
			m.openDetail()
		}
	case key.Matches(k, m.keys.Back):
		if m.filter.active() {
			m.filter = filter{}
			m.setFlash("filters cleared", false)
		}
	case key.Matches(k, m.keys.Split):
		m.split = !m.split
		m.focusDetail = false
	case key.Matches(k, m.keys.Filter):
		m.filterPrev = m.filter.text.raw
		return m.openPrompt(promptFilter, "filter (text !not ~regex): ", m.filter.text.raw)
	case key.Matches(k, m.keys.Search):
		m.filterPrev = m.filter.body.raw
		return m.openPrompt(promptSearch, "search bodies (text !not ~regex): ", m.filter.body.raw)
	case key.Matches(k, m.keys.Status):
		m.filter.class = (m.filter.class + 1) % classCount
	case key.Matches(k, m.keys.Eshop):
		m.filter.eshop = next(m.eshopIDs(), m.filter.eshop)
	case key.Matches(k, m.keys.Method):
		i := 0
		for j, v := range methods {
			if v == m.filter.method {
				i = j
			}
		}
		m.filter.method = methods[(i+1)%len(methods)]
	case key.Matches(k, m.keys.ControlPlane):
		m.showControl = !m.showControl
		if m.showControl {
			m.setFlash("control-plane calls (/_sandbox/) shown; a hides them", false)
		} else {
			m.setFlash("control-plane calls (/_sandbox/) hidden; a shows them", false)
		}
	case key.Matches(k, m.keys.Clear):
		m.filter = filter{}
	case key.Matches(k, m.keys.Sort):
		m.cycleSort()
	case key.Matches(k, m.keys.SortReverse):
		m.reverseSort()
	default:
		if cmd, ok := m.onTabKey(k); ok {
			return cmd
		}
		return m.onActionKey(k)
	}
	return nil
}

// onTabKey switches tabs (tab, shift+tab, 1 to 7); it reports whether k
// was one of those keys.
func (m *Model) onTabKey(k tea.KeyMsg) (tea.Cmd, bool) {
	to := tab(-1)
	switch {
	case key.Matches(k, m.keys.Switch):
		to = (m.tab + 1) % tabCount
	case key.Matches(k, m.keys.SwitchBack):
		to = (m.tab + tabCount - 1) % tabCount
	default:
		// One key per view, in the views' order.
		for t, b := range []key.Binding{m.keys.Calls, m.keys.Webhooks, m.keys.Report, m.keys.Faults, m.keys.Outbox, m.keys.Jobs, m.keys.Installs} {
			if key.Matches(k, b) {
				to = tab(t)
			}
		}
	}
	if to < 0 {
		return nil, false
	}
	m.switchTab(to)
	if m.state == stateDetail {
		m.state = stateList
	}
	return m.refreshView(false), true
}

// next cycles through 0 (all) and then each id.
func next(ids []int, cur int) int {
	for i, id := range ids {
		if id == cur {
			if i+1 < len(ids) {
				return ids[i+1]
			}
			return 0
		}
	}
	if cur == 0 && len(ids) > 0 {
		return ids[0]
	}
	return 0
}

// eshopIDs are the e-shops the filter offers: the sandbox's and any seen.
func (m *Model) eshopIDs() []int {
	seen := map[int]bool{}
	for _, e := range m.info.Eshops {
		seen[e.ID] = true
	}
	for id := range m.hist.eshops {
		seen[id] = true
	}
	ids := make([]int, 0, len(seen))
	for id := range seen {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	return ids
}

// onDetailKey scrolls the detail (whole-screen, or the split view's pane
// when it has the keys).
func (m *Model) onDetailKey(k tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(k, m.keys.Back), key.Matches(k, m.keys.Detail):
		if m.state == stateDetail {
			m.state = stateList
		}
		m.focusDetail = false
	case key.Matches(k, m.keys.Up):
		m.detail.LineUp(1)
	case key.Matches(k, m.keys.Down):
		m.detail.LineDown(1)
	case key.Matches(k, m.keys.PageUp):
		m.detail.PageUp()
	case key.Matches(k, m.keys.PageDown):
		m.detail.PageDown()
	case key.Matches(k, m.keys.Oldest):
		m.detail.GotoTop()
	case key.Matches(k, m.keys.Newest):
		m.detail.GotoBottom()
	default:
		if cmd, ok := m.onTabKey(k); ok {
			return cmd
		}
		return m.onActionKey(k)
	}
	return nil
}

// onInputKey edits the prompt; the filter and the body search apply as
// they are typed.
func (m *Model) onInputKey(k tea.KeyMsg) tea.Cmd {
	switch k.Type {
	case tea.KeyCtrlC:
		return m.quit()
	case tea.KeyEsc:
		switch m.prompt {
		case promptFilter:
			m.filter.text = parseQuery(m.filterPrev)
		case promptSearch:
			m.filter.body = parseQuery(m.filterPrev)
		}
		m.closePrompt()
		return nil
	case tea.KeyEnter:
		v := strings.TrimSpace(m.input.text())
		m.closePrompt()
		return m.submit(v)
	}
	if m.input.update(k) {
		switch m.prompt {
		case promptFilter:
			m.filter.text = parseQuery(m.input.text())
		case promptSearch:
			m.filter.body = parseQuery(m.input.text())
		}
	}
	return nil
}

func (m *Model) openPrompt(p prompt, label, value string) tea.Cmd {
	m.prompt = p
	m.input.set(label, value)
	if m.state != stateInput {
		m.back = m.state
	}
	m.state = stateInput
	return nil
}

func (m *Model) closePrompt() {
	m.state = m.back
	if m.state != stateDetail {
		m.state = stateList
	}
}

// quit ends the UI, after asking when Options.ConfirmQuit says so.
func (m *Model) quit() tea.Cmd {
	if m.opts.ConfirmQuit == "" {
		return tea.Quit
	}
	m.under, m.state = m.state, stateConfirm
	return nil
}

// onConfirmKey answers the quit question: y (or ctrl+c again) quits,
// anything else keeps the sandbox running.
func (m *Model) onConfirmKey(k tea.KeyMsg) tea.Cmd {
	switch k.String() {
	case "y", "Y", "ctrl+c":
		return tea.Quit
	}
	m.state = m.under
	m.setFlash("still running", false)
	return nil
}

// cur is the cursor of the table on screen.
func (m *Model) cur() *cursor {
	switch m.tab {
	case tabCalls:
		return &m.callCur
	case tabWebhooks:
		return &m.hookCur
	}
	return &m.viewCur[m.tab]
}

// rowSeqs lists the rows of the table on screen, filtered, in order.
func (m *Model) rowSeqs() []int64 {
	switch m.tab {
	case tabCalls:
		return callSeqs(m.callRows())
	case tabWebhooks:
		return hookSeqs(m.hookRows())
	}
	rows := m.viewRows(m.tab)
	seqs := make([]int64, len(rows))
	for i, r := range rows {
		seqs[i] = r.seq
	}
	return seqs
}

// bodyHeight is the room between the two top and two bottom lines.
func (m *Model) bodyHeight() int { return max(1, m.height-4) }

// openDetail shows the selected row's detail on the whole screen.
func (m *Model) openDetail() {
	s := m.selectedSubject()
	if s.key == "" {
		return
	}
	m.shown = s
	m.paneKey = "" // opens at the top (or at the first body match)
	m.state = stateDetail
}
