package api

import (
	"context"
	"net/http"
)

// CallInfo is what the routing layer learns about a call (which e-shop,
// which token kind, which operation) and hands back to an outer observer
// such as the traffic recorder, which cannot know these itself.
type CallInfo struct {
	Eshop     int
	TokenKind string
	Operation string
	// Fault names the scripted fault applied to the call ("" for none);
	// the scenario engine (sandbox/scenario) sets it, the recorder shows it.
	Fault string
}

type recorderKey struct{}

// WithCallInfo attaches an empty CallInfo to a request; the observer that
// attached it reads it after the handler ran.
func WithCallInfo(r *http.Request) (*http.Request, *CallInfo) {
	ci := &CallInfo{}
	return r.WithContext(context.WithValue(r.Context(), recorderKey{}, ci)), ci
}

func recorderOf(r *http.Request) *CallInfo {
	ci, _ := r.Context().Value(recorderKey{}).(*CallInfo)
	return ci
}

// CallInfoOf returns the CallInfo an outer observer attached to the
// request (nil when none did), so middleware inside it, such as the
// scripted faults, can note what it did to the call.
func CallInfoOf(r *http.Request) *CallInfo { return recorderOf(r) }
