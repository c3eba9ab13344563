package tui

import (
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// onKey routes a key press by state.
func (m *Model) onKey(k tea.KeyMsg) tea.Cmd {
	if m.state == stateInput {
		return m.onInputKey(k)
	}
	switch {
	case key.Matches(k, m.keys.Quit):
		return tea.Quit
	case key.Matches(k, m.keys.Help):
		m.toggle(stateHelp)
		return nil
	case key.Matches(k, m.keys.Info):
		m.toggle(stateInfo)
		return nil
	}
	switch m.state {
	case stateHelp, stateInfo:
		if key.Matches(k, m.keys.Back) {
			m.state = m.back
		}
		return nil
	case stateDetail:
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
}

func (m *Model) onListKey(k tea.KeyMsg) tea.Cmd {
	seqs := m.rowSeqs()
	cur := m.cur()
	page := max(1, m.bodyHeight()-2)
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
		m.openDetail()
	case key.Matches(k, m.keys.Back):
		if m.filter.active() {
			m.filter = filter{}
			m.setFlash("filters cleared", false)
		}
	case key.Matches(k, m.keys.Switch):
		m.tab = 1 - m.tab
	case key.Matches(k, m.keys.Calls):
		m.tab = tabCalls
	case key.Matches(k, m.keys.Webhooks):
		m.tab = tabWebhooks
	case key.Matches(k, m.keys.Filter):
		m.filterPrev = m.filter.text
		return m.openPrompt(promptFilter, "filter: ", m.filter.text)
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
	case key.Matches(k, m.keys.Clear):
		m.filter = filter{}
	default:
		return m.onActionKey(k)
	}
	return nil
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

func (m *Model) onDetailKey(k tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(k, m.keys.Back), key.Matches(k, m.keys.Detail):
		m.state = stateList
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
		return m.onActionKey(k)
	}
	return nil
}

// onInputKey edits the prompt; the text filter applies as it is typed.
func (m *Model) onInputKey(k tea.KeyMsg) tea.Cmd {
	switch k.Type {
	case tea.KeyCtrlC:
		return tea.Quit
	case tea.KeyEsc:
		if m.prompt == promptFilter {
			m.filter.text = m.filterPrev
		}
		m.closePrompt()
		return nil
	case tea.KeyEnter:
		v := strings.TrimSpace(m.input.text())
		m.closePrompt()
		return m.submit(v)
	}
	if m.input.update(k) && m.prompt == promptFilter {
		m.filter.text = strings.TrimSpace(m.input.text())
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

// cur is the cursor of the table on screen.
func (m *Model) cur() *cursor {
	if m.tab == tabWebhooks {
		return &m.hookCur
	}
	return &m.callCur
}

// rowSeqs lists the rows of the table on screen, filtered, in order.
func (m *Model) rowSeqs() []int64 {
	if m.tab == tabWebhooks {
		rows := m.hookRows()
		seqs := make([]int64, len(rows))
		for i, r := range rows {
			seqs[i] = r.seq
		}
		return seqs
	}
	rows := m.callRows()
	seqs := make([]int64, len(rows))
	for i, r := range rows {
		seqs[i] = r.seq
	}
	return seqs
}

// bodyHeight is the room between the two top and two bottom lines.
func (m *Model) bodyHeight() int { return max(1, m.height-4) }

func (m *Model) openDetail() {
	switch m.tab {
	case tabCalls:
		c := m.selectedCall()
		if c == nil {
			return
		}
		m.detailCall, m.detailHook = c, nil
	case tabWebhooks:
		d := m.selectedHook()
		if d == nil {
			return
		}
		m.detailCall, m.detailHook = nil, d
	}
	m.state = stateDetail
	m.layoutDetail()
	m.detail.GotoTop()
}
