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
