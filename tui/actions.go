package tui

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// actionTimeout bounds one control-plane call.
const actionTimeout = 15 * time.Second

// onActionKey handles the keys that work in the list and the detail pane:
// the feed, curl, and the control-plane actions.
func (m *Model) onActionKey(k tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(k, m.keys.Pause):
		if m.paused {
			n := len(m.pending)
			m.resume()
			m.setFlash(fmt.Sprintf("live feed resumed (%d new)", n), false)
		} else {
			m.paused = true
			m.setFlash("live feed paused", false)
		}
	case key.Matches(k, m.keys.Copy), key.Matches(k, m.keys.PrintOnExit):
		c := m.currentCall()
		if c == nil {
			m.setFlash("select a call first (curl is for calls)", true)
			return nil
		}
		cmd := curlCommand(c, m.info.BaseURL)
		if key.Matches(k, m.keys.PrintOnExit) {
			m.curlOnExit = append(m.curlOnExit, cmd)
			m.setFlash("the curl command will be printed on exit", false)
			return nil
		}
		return m.copyCmd(cmd)
	case key.Matches(k, m.keys.Replay):
		d := m.currentHook()
		if d == nil {
			m.setFlash("select a webhook first (2 shows the webhooks)", true)
			return nil
		}
		id := d.ID
		return m.act("replayed delivery "+id+": the copy is queued", func(ctx context.Context, c Control) error { return c.ReplayDelivery(ctx, id) })
	case key.Matches(k, m.keys.NextMatch):
		m.jumpMatch(1)
	case key.Matches(k, m.keys.PrevMatch):
		m.jumpMatch(-1)
	case key.Matches(k, m.keys.Refresh):
		if m.tab.live() {
			m.setFlash("calls and webhooks are live; R reads the other views again", false)
			return nil
		}
		return m.refreshView(true)
	case key.Matches(k, m.keys.Emit):
		return m.openPrompt(promptEmit, "emit event (e-shop event instance): ", m.emitDefault())
	case key.Matches(k, m.keys.Clock):
		return m.openPrompt(promptClock, "advance the clock by: ", "1h")
	case key.Matches(k, m.keys.Approve):
		return m.openPrompt(promptApprove, "approve add-on (e-shop add-on): ", m.approveDefault())
	case key.Matches(k, m.keys.Maintenance):
		return m.toggleMaintenance()
	}
	return nil
}

// submit runs what a prompt asked for.
func (m *Model) submit(v string) tea.Cmd {
	switch m.prompt {
	case promptFilter:
		m.filter.text = parseQuery(v)
		if m.filter.text.bad != "" {
			m.setFlash("not a regular expression, matched as text: "+m.filter.text.bad, true)
		}
	case promptSearch:
		m.filter.body = parseQuery(v)
		switch {
		case m.filter.body.bad != "":
			m.setFlash("not a regular expression, matched as text: "+m.filter.body.bad, true)
		case !m.filter.body.empty():
			m.setFlash("rows whose bodies match; n and N go from match to match in the detail", false)
		}
	case promptEmit:
		f := strings.Fields(v)
		id, err := 0, error(nil)
		if len(f) == 3 {
			id, err = strconv.Atoi(f[0])
		}
		if len(f) != 3 || err != nil {
			m.setFlash("emit: type the e-shop, the event and the instance, e.g. 1001 order:create 2025000001", true)
			return nil
		}
		return m.act(fmt.Sprintf("emitted %s %s in e-shop %d", f[1], f[2], id), func(ctx context.Context, c Control) error {
			return c.EmitEvent(ctx, id, f[1], f[2])
		})
	case promptClock:
		if v == "" {
			m.setFlash("clock: type a duration such as 1h, 90m or 7d", true)
			return nil
		}
		return m.act("clock advanced by "+v, func(ctx context.Context, c Control) error { return c.AdvanceClock(ctx, v) })
	case promptApprove:
		f := strings.Fields(v)
		id, err := 0, error(nil)
		if len(f) == 2 {
			id, err = strconv.Atoi(f[0])
		}
		if len(f) != 2 || err != nil {
			m.setFlash("approve: type the e-shop and the add-on, e.g. 1001 example-addon", true)
			return nil
		}
		return m.act(fmt.Sprintf("approved %s's pending endpoints in e-shop %d", f[1], id), func(ctx context.Context, c Control) error {
			return c.ApproveAddon(ctx, id, f[1])
		})
	}
	return nil
}

// act runs a control-plane call in the background and reports back.
func (m *Model) act(what string, fn func(context.Context, Control) error) tea.Cmd {
	ctl := m.opts.Control
	if ctl == nil {
		m.setFlash("no control plane: actions are unavailable here", true)
		return nil
	}
	m.setFlash(what+"…", false)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
		defer cancel()
		return actionMsg{what: what, err: fn(ctx, ctl)}
	}
}

// toggleMaintenance asks the control plane for the maintenance state and
// sets the opposite, so the toggle is right even when someone else
// changed it meanwhile.
func (m *Model) toggleMaintenance() tea.Cmd {
	ctl := m.opts.Control
	if ctl == nil {
		m.setFlash("no control plane: actions are unavailable here", true)
		return nil
	}
	known := m.maintOn
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
		defer cancel()
		cur, err := ctl.Maintenance(ctx)
		if err != nil {
			cur = known
		}
		now, err := ctl.SetMaintenance(ctx, !cur)
		what := "maintenance mode off"
		if !cur {
			what = "maintenance mode on"
		}
		return actionMsg{what: what, err: err, maintenance: &now}
	}
}

func (m *Model) onAction(a actionMsg) {
	if a.maintenance != nil && a.err == nil {
		m.maintOn = *a.maintenance
	}
	switch {
	case a.what == "":
	case a.err != nil:
		m.setFlash(a.what+" failed: "+a.err.Error(), true)
	default:
		m.setFlash(a.what, false)
	}
}

func (m *Model) copyCmd(s string) tea.Cmd {
	clip := m.opts.Clipboard
	if clip == nil {
		m.setFlash("no clipboard; Y prints the command on exit instead", true)
		return nil
	}
	return func() tea.Msg {
		where, err := clip(s)
		return clipboardMsg{where: where, err: err}
	}
}

// currentCall is the call the detail shows, or the selected one.
func (m *Model) currentCall() *bus.Call { return m.detailSubject().call }

// currentHook is the webhook the detail shows, or the selected one.
func (m *Model) currentHook() *bus.Delivery { return m.detailSubject().hook }

// selectedCall is the calls table's selected call (nil when empty).
func (m *Model) selectedCall() *bus.Call {
	rows := m.callRows()
	if i := m.callCur.place(callSeqs(rows)); i >= 0 {
		return rows[i].c
	}
	return nil
}

// emitDefault proposes the selected webhook's event again, or an
// order:create in the selected call's e-shop.
func (m *Model) emitDefault() string {
	if d := m.currentHook(); d != nil {
		return fmt.Sprintf("%d %s %s", d.Eshop, d.Event, d.Instance)
	}
	return fmt.Sprintf("%d order:create ", m.defaultEshop())
}

// approveDefault proposes the first add-on of the likely e-shop.
func (m *Model) approveDefault() string {
	id := m.defaultEshop()
	for _, e := range m.info.Eshops {
		if e.ID == id && len(e.Addons) > 0 {
			return fmt.Sprintf("%d %s", id, e.Addons[0])
		}
	}
	return fmt.Sprintf("%d ", id)
}

// defaultEshop is the e-shop an action most likely means: the selected
// call's, the filtered one, or the first.
func (m *Model) defaultEshop() int {
	if c := m.currentCall(); c != nil && c.Eshop != 0 {
		return c.Eshop
	}
	if m.filter.eshop != 0 {
		return m.filter.eshop
	}
	if len(m.info.Eshops) > 0 {
		return m.info.Eshops[0].ID
	}
	return 0
}
