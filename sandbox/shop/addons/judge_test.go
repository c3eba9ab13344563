package addons

import (
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/shop/oauth"
)

// TestJudge decides installs from their facts alone: the order of the
// exchange and the answer, refused exchanges and the answer's status.
func TestJudge(t *testing.T) {
	ok := Attempt{Exchange: oauth.Exchange{Accepted: true, Status: 200}}
	late := Attempt{Exchange: oauth.Exchange{Accepted: true, Status: 200}, AfterAnswer: true}
	refused := func(reason, errVal string, status int) Attempt {
		return Attempt{Exchange: oauth.Exchange{Status: status, Error: errVal, Reason: reason, Description: "details from the OAuth server"}}
	}
	answer := func(status int) *Answer { return &Answer{Status: status} }
	tests := []struct {
		name      string
		answer    *Answer
		exchanges []Attempt
		passed    bool
		problems  [][]string // per expected problem, in order: substrings it holds
	}{
		{"exchange then 200", answer(200), []Attempt{ok}, true, nil},
		{"200 without exchange", answer(200), nil, false, [][]string{{"without exchanging the code", "/token"}}},
		{"200 before the exchange", answer(200), []Attempt{late}, false, [][]string{{"before it exchanged the code"}}},
		{"code reused", answer(200), []Attempt{ok, refused(oauth.ReasonUsedCode, "invalid_grant", 400)}, false, [][]string{{"reused the code"}}},
		{"wrong secret, then 502", answer(502), []Attempt{refused(oauth.ReasonClientSecret, "invalid_client", 401)}, false,
			[][]string{{"wrong client_secret: exchange 1 was refused with HTTP 401 invalid_client"}, {"HTTP 502"}}},
		{"wrong secret, 200 anyway", answer(200), []Attempt{refused(oauth.ReasonClientSecret, "invalid_client", 401)}, false,
			[][]string{{"wrong client_secret"}, {"holds no OAuth access token"}}},
		{"wrong redirect URI", answer(502), []Attempt{refused(oauth.ReasonRedirectURI, "invalid_grant", 400)}, false, [][]string{{"wrong redirect_uri"}, {"HTTP 502"}}},
		{"exchange then 500", answer(500), []Attempt{ok}, false, [][]string{{"HTTP 500", "did obtain an OAuth access token"}}},
		{"exchange then redirect", &Answer{Status: 302, Location: "http://addon/settings"}, []Attempt{ok}, false, [][]string{{"HTTP 302", "redirected to http://addon/settings"}}},
		{"unreachable", nil, nil, false, [][]string{{"could not reach", "connection refused"}}},
		{"code of another install", answer(200), []Attempt{{Exchange: ok.Exchange, OtherCode: true}}, false,
			[][]string{{"not sent with this install"}, {"without exchanging"}}},
		{"unknown reason still explained", answer(502), []Attempt{refused("something-new", "invalid_request", 400)}, false,
			[][]string{{"exchange 1 was refused with HTTP 400 invalid_request. details from the OAuth server"}, {"HTTP 502"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &InstallReport{InstallURL: "http://addon/install", TokenURL: "http://sandbox/eshops/1/action/ApiOAuthServer/token", Answer: tc.answer, Exchanges: tc.exchanges}
			if tc.answer == nil {
				rec.Unreachable = "connection refused"
			}
			Judge(rec)
			if rec.Passed != tc.passed || (rec.Result == Passed) != tc.passed {
				t.Fatalf("passed=%v result=%s, want passed=%v; problems %q", rec.Passed, rec.Result, tc.passed, rec.Problems)
			}
			if len(rec.Problems) != len(tc.problems) {
				t.Fatalf("problems %q, want %d", rec.Problems, len(tc.problems))
			}
			for i, wants := range tc.problems {
				for _, want := range wants {
					if !strings.Contains(rec.Problems[i], want) {
						t.Errorf("problem %d %q lacks %q", i, rec.Problems[i], want)
					}
				}
			}
			if rec.Summary == "" || (!tc.passed && rec.Summary != rec.Problems[0]) {
				t.Fatalf("summary %q", rec.Summary)
			}
		})
	}
}

// TestWriteText shows the report as `sandbox install` prints it.
func TestWriteText(t *testing.T) {
	rec := &InstallReport{ID: "7", EshopID: 1001, Addon: "shop-sync", InstallURL: "http://addon/install", TokenURL: "http://sb/token",
		CodeExpiresAt: "2026-03-02T10:05:00+0000", Answer: &Answer{Status: 200}, AddonStatus: "configured"}
	Judge(rec)
	var b strings.Builder
	rec.WriteText(&b)
	for _, want := range []string{"install 7 of add-on shop-sync into e-shop 1001: FAILED", "code=<255 characters>", "code exchange:   none (expected at http://sb/token)",
		"answer:          HTTP 200", "add-on status:   configured", "- The add-on answered 200 without exchanging the code"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	rec.Exchanges = []Attempt{{Exchange: oauth.Exchange{Accepted: true, URL: "http://sb/token"}}}
	Judge(rec)
	b.Reset()
	rec.WriteText(&b)
	if !strings.Contains(b.String(), ": passed\n") || !strings.Contains(b.String(), "code exchange 1: accepted, OAuth access token issued (before the answer)") || strings.Contains(b.String(), "problems:") {
		t.Errorf("passed report:\n%s", b.String())
	}
}
