package api

import (
	"errors"
	"strings"
	"testing"
)

// TestDecodeAnswer: data decodes into out; an error envelope, or a 4xx
// without one's errors, is an *AnswerError with its code and message;
// bytes that are no envelope say so.
func TestDecodeAnswer(t *testing.T) {
	var out struct{ N int }
	if err := DecodeAnswer(200, []byte(`{"data":{"N":3},"errors":null}`), &out); err != nil || out.N != 3 {
		t.Fatalf("data: %v %+v", err, out)
	}
	cases := []struct {
		name   string
		status int
		raw    string
		code   string
		msg    string
	}{
		{"error envelope", 422, `{"data":null,"errors":[{"errorCode":"schema-mismatch","message":"bad","instance":"body"}]}`, "schema-mismatch", "bad"},
		{"errors without data on 200", 200, `{"data":null,"errors":[{"errorCode":"x","message":"m"}]}`, "x", "m"},
		{"404 without errors", 404, `{"data":null,"errors":null}`, "", "HTTP 404"},
	}
	for _, c := range cases {
		var ae *AnswerError
		if err := DecodeAnswer(c.status, []byte(c.raw), nil); !errors.As(err, &ae) || ae.Code != c.code || ae.Message != c.msg || ae.Status != c.status {
			t.Errorf("%s: %v (%+v)", c.name, err, ae)
		}
	}
	if err := DecodeAnswer(502, []byte("<html>bad gateway</html>"), nil); err == nil || !strings.Contains(err.Error(), "without the sandbox's envelope") {
		t.Errorf("not an envelope: %v", err)
	}
}
