package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
	"github.com/eshop-sandbox/sandbox/sandbox/app/timectl"
	"github.com/eshop-sandbox/sandbox/sandbox/controlclient"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// outcome is what a step function reports.
type outcome struct {
	ok       bool
	expected string
	got      string
	traffic  []string
	note     string
}

func pass(note string) outcome { return outcome{ok: true, note: note} }

func fail(expected, got string, traffic []string) outcome {
	return outcome{expected: expected, got: got, traffic: traffic}
}

// step runs one step and times it.
func (r *run) step(i int, st *scenario.Step) StepResult {
	res := StepResult{Index: i + 1, Name: stepName(st), Kind: st.Kind(), Line: st.Pos.Line}
	if st.IsAction() {
		r.cursorCalls, r.cursorDeliveries = r.log.marks()
	}
	began := time.Now()
	var o outcome
	switch {
	case st.Install != nil:
		o = r.install(st.Install)
	case st.Emit != nil:
		o = r.emit(st.Emit)
	case st.Call != nil:
		o = r.call(st.Call)
	case st.AdvanceClock != nil:
		o = r.clock(timectl.MoveBody{Advance: st.AdvanceClock.String()})
	case st.SetClock != "":
		o = r.clock(timectl.MoveBody{Set: st.SetClock})
	case st.Wait != nil:
		o = r.wait(st.Wait.D())
	case st.ExpectRequest != nil:
		o = r.expectRequest(st.ExpectRequest, false)
	case st.ExpectNoRequest != nil:
		o = r.expectRequest(st.ExpectNoRequest, true)
	case st.ExpectWebhookAck != nil:
		o = r.expectWebhook(st.ExpectWebhookAck, true)
	case st.ExpectWebhookRejected != nil:
		o = r.expectWebhook(st.ExpectWebhookRejected, false)
	case st.ExpectBackoff != nil:
		o = r.expectBackoff(st.ExpectBackoff)
	case st.ExpectReport != nil:
		o = r.expectReport(st.ExpectReport)
	default:
		o = fail("a step kind", "the step has none", nil)
	}
	res.Ended = time.Now()
	res.Duration = res.Ended.Sub(began)
	res.Status = Failed
	if o.ok {
		res.Status = Passed
	}
	res.Expected, res.Got, res.Traffic, res.Note = o.expected, o.got, o.traffic, o.note
	if !o.ok && r.proc != nil {
		if err := r.proc.exited(); err != nil {
			res.Got += "\nThe add-on is no longer running: " + firstLine(err.Error())
		}
	}
	return res
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func (r *run) addonName(name string) string {
	if name == "" && r.sc.Addon != nil {
		return r.sc.Addon.Name
	}
	return name
}

func (r *run) eshop(id int) int {
	if id == 0 && r.sc.Addon != nil {
		return r.sc.Addon.Eshop
	}
	return id
}

// install runs the install handshake against the add-on and judges it.
func (r *run) install(s *scenario.InstallStep) outcome {
	eshop, name := r.eshop(s.Eshop), r.addonName(s.Addon)
	wantOK := s.Expect != "failure"
	expected := fmt.Sprintf("the add-on %s installs into e-shop %d correctly (code exchanged before answering 200)", name, eshop)
	if !wantOK {
		expected = fmt.Sprintf("the install of %s into e-shop %d fails", name, eshop)
	}
	rep, err := r.cc.Install(r.ctx, eshop, name)
	var ae *api.AnswerError
	if errors.As(err, &ae) {
		return fail(expected, "the sandbox refused the install: "+answerText(err), nil)
	}
	if err != nil {
		return fail(expected, "the install could not be started: "+err.Error(), nil)
	}
	if rep.Passed == wantOK {
		return pass(fmt.Sprintf("install %s: %s", rep.ID, rep.Summary))
	}
	got := fmt.Sprintf("install %s %s: %s", rep.ID, rep.Result, rep.Summary)
	if len(rep.Problems) > 1 {
		got += "\n- " + strings.Join(rep.Problems, "\n- ")
	}
	cs, ds, _ := r.log.since(r.cursorCalls, r.cursorDeliveries)
	return fail(expected, got, traffic(cs, ds, 10))
}

// emit emits an event for the e-shop through the control plane.
func (r *run) emit(s *scenario.EmitStep) outcome {
	eshop := r.eshop(s.Eshop)
	expected := fmt.Sprintf("the sandbox emits %s %s in e-shop %d", s.Event, s.Instance, eshop)
	if _, err := r.cc.Emit(r.ctx, controlclient.Event{EshopID: eshop, Event: s.Event, Instance: s.Instance}); err != nil {
		return fail(expected, answerText(err), nil)
	}
	return pass(fmt.Sprintf("emitted %s %s", s.Event, s.Instance))
}

// call calls the API as the e-shop administration.
func (r *run) call(s *scenario.CallStep) outcome {
	method := s.Method
	if method == "" {
		method = http.MethodGet
	}
	eshop := r.eshop(s.Eshop)
	tok := s.Token
	if tok == "" {
		var err error
		if tok, err = r.adminToken(eshop); err != nil {
			return fail("a private token of e-shop "+fmt.Sprint(eshop), err.Error(), nil)
		}
	}
	h := map[string]string{r.headers.private: tok}
	for k, v := range s.Header {
		x, err := r.expand(v)
		if err != nil {
			return fail("call.header."+k, err.Error(), nil)
		}
		h[k] = x
	}
	path, err := r.expand(s.Path)
	if err != nil {
		return fail("call.path", err.Error(), nil)
	}
	yb, err := r.expandValue(s.Body)
	if err != nil {
		return fail("call.body", err.Error(), nil)
	}
	body, err := scenario.BodyJSON(yb)
	if err != nil {
		return fail("a JSON body", err.Error(), nil)
	}
	var b any
	if body != nil {
		b = body
	}
	expected := fmt.Sprintf("%s %s answers", method, path)
	wantStatus := 0
	if s.Expect != nil {
		wantStatus = s.Expect.Status
	}
	if wantStatus != 0 {
		expected += fmt.Sprintf(" %d", wantStatus)
	} else {
		expected += " 2xx"
	}
	status, raw, err := r.send(method, path, b, h)
	if err != nil {
		return fail(expected, err.Error(), nil)
	}
	if (wantStatus != 0 && status != wantStatus) || (wantStatus == 0 && status/100 != 2) {
		return fail(expected, fmt.Sprintf("%d %s", status, clip(string(raw), 400)), nil)
	}
	if s.Expect != nil && s.Expect.Body != nil {
		want, err := r.expandValue(s.Expect.Body)
		if err != nil {
			return fail(expected, "call.expect.body: "+err.Error(), nil)
		}
		var got any
		if err := json.Unmarshal(raw, &got); err != nil {
			return fail(expected+" with a JSON body", "the body is not JSON: "+clip(string(raw), 200), nil)
		}
		if diff := subset(normalize(want), got, ""); diff != "" {
			return fail(expected+" with a body containing "+compact(want), diff+"\nbody: "+clip(string(raw), 400), nil)
		}
	}
	return pass(fmt.Sprintf("%s %s -> %d", method, path, status))
}

// adminToken finds a private token of the e-shop holding every right (the
// administration's), the first in the fixtures' order.
func (r *run) adminToken(eshop int) (string, error) {
	var tok, first string
	err := r.app.Store.View(func(tx *store.Tx) error {
		return auth.EachToken(tx, func(t *auth.Token) bool {
			if t.Kind != auth.KindPrivate || t.EshopID != eshop {
				return true
			}
			if first == "" {
				first = t.Token
			}
			if t.AllGroups {
				tok = t.Token
				return false
			}
			return true
		})
	})
	if err != nil {
		return "", err
	}
	if tok == "" {
		tok = first
	}
	if tok == "" {
		return "", fmt.Errorf("e-shop %d has no private token in the fixtures; give call.token", eshop)
	}
	return tok, nil
}

// clock moves the sandbox clock through the control plane.
func (r *run) clock(body timectl.MoveBody) outcome {
	expected := "the clock moves"
	st, err := r.cc.MoveClock(r.ctx, body)
	if err != nil {
		return fail(expected, answerText(err), nil)
	}
	return pass("sandbox time is now " + st.Now)
}

// wait lets wall time pass for the add-on.
func (r *run) wait(d time.Duration) outcome {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return pass("waited " + d.String())
	case <-r.ctx.Done():
		return fail("to wait "+d.String(), "interrupted", nil)
	}
}
