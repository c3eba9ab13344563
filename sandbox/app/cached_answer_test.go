package app_test

import (
	"encoding/json"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestCachedAnswersRecordedWhole: a cached read goes out in one write
// from a pooled buffer; the traffic tap keeps each answer as it was
// sent (its own request id in the tail), although the buffer is reused
// by the next answer.
func TestCachedAnswersRecordedWhole(t *testing.T) {
	s, f := start(t)
	guid := f.Products[0]["guid"].(string)
	sent := map[string]string{}
	for i := 0; i < 4; i++ {
		r := s.Do(sandboxtest.Call{Path: "/api/products/" + guid, PrivateToken: f.FullToken})
		if r.Status != 200 || r.Header.Get("Content-Length") == "" {
			t.Fatalf("read %d: %d %v", i, r.Status, r.Header)
		}
		sent[r.Env.Metadata.RequestID] = string(r.Body)
	}
	var traffic struct {
		Events []struct {
			Call *struct {
				ID       string `json:"id"`
				Path     string `json:"path"`
				RespBody []byte `json:"responseBody"`
			} `json:"call"`
		} `json:"events"`
	}
	r := s.Do(sandboxtest.Call{Path: "/_sandbox/traffic", ContentType: "-"})
	if err := json.Unmarshal(r.Env.Data, &traffic); err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, e := range traffic.Events {
		if e.Call == nil || sent[e.Call.ID] == "" {
			continue
		}
		seen++
		if got := string(e.Call.RespBody); got != sent[e.Call.ID] {
			t.Errorf("call %s recorded %d bytes unlike the %d sent:\n%.200s", e.Call.ID, len(got), len(sent[e.Call.ID]), got)
		}
	}
	if seen != len(sent) {
		t.Fatalf("recorded %d of the %d reads", seen, len(sent))
	}
}
