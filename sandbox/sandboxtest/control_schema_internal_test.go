package sandboxtest

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

type recordTB struct {
	testing.TB
	mu   sync.Mutex
	msgs []string
}

func (r *recordTB) Helper() {}
func (r *recordTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}
func (r *recordTB) Fatalf(format string, args ...any) { r.Errorf(format, args...); runtime.Goexit() }

// TestControlAnswersAreCheckedAgainstTheirSchema: a control-plane answer
// that strays from the schema its operation declares in
// /_sandbox/openapi-control.json fails the test that received it; one
// that keeps to it passes.
func TestControlAnswersAreCheckedAgainstTheirSchema(t *testing.T) {
	s := New(t, sandbox.Config{})
	good := s.Do(Call{Method: "POST", Path: "/_sandbox/events", Body: map[string]any{"eshop": 1001, "event": "order:create", "instance": "2025000001"}})
	if good.Operation != "sandbox.events.emit" || good.Status != 200 {
		t.Fatalf("emit: %s %d %s", good.Operation, good.Status, good.Body)
	}
	for _, tc := range []struct {
		name string
		body string
		want string
	}{
		{"as answered", string(good.Body), ""},
		{"eshopId a string", strings.Replace(string(good.Body), `"eshopId":1001`, `"eshopId":"1001"`, 1), "eshopId"},
		{"event missing", strings.Replace(string(good.Body), `"event":"order:create",`, ``, 1), "event"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recordTB{TB: t}
			done := make(chan struct{})
			go func() {
				defer close(done)
				s.For(rec).checkControlSchema(&Response{Operation: good.Operation, Status: 200, Body: []byte(tc.body)})
			}()
			<-done
			msg := strings.Join(rec.msgs, "\n")
			if tc.want == "" && msg != "" {
				t.Errorf("the answer as sent failed its schema: %s", msg)
			}
			if tc.want != "" && (!strings.Contains(msg, "does not match its schema") || !strings.Contains(msg, tc.want)) {
				t.Errorf("a stray answer (%s) passed or failed without naming %s: %q", tc.body, tc.want, msg)
			}
		})
	}
}
