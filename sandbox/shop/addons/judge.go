package addons

import (
	"fmt"
	"net/http"

	"github.com/eshop-sandbox/sandbox/sandbox/shop/oauth"
)

// Judge decides an install from its facts (the answer, or why there was
// none, and the code exchanges) and writes the verdict into the record:
// Result, Passed, Problems and Summary. The spec's rule: the add-on must
// exchange the code in the same request, before it answers the install
// request with HTTP 200. Every deviation is one readable problem, the
// root cause (a refused exchange) before its consequence (the answer).
func Judge(rec *InstallReport) {
	var problems []string
	inTime, late, refused := false, false, 0
	for i, a := range rec.Exchanges {
		switch {
		case a.Accepted && a.OtherCode:
			problems = append(problems, fmt.Sprintf("The add-on exchanged a code that was not sent with this install (exchange %d): use the code parameter of the install request it is handling.", i+1))
		case a.Accepted && a.AfterAnswer:
			late = true
		case a.Accepted:
			inTime = true
		default:
			refused++
			problems = append(problems, refusal(i+1, a))
		}
	}
	switch {
	case rec.Answer == nil:
		problems = append(problems, fmt.Sprintf("The sandbox could not reach the add-on's install URL %s: %s. Is the add-on running and listening there?", rec.InstallURL, rec.Unreachable))
	case rec.Answer.Status != http.StatusOK:
		p := fmt.Sprintf("The add-on answered the install request with HTTP %d; the e-shop expects 200, sent once the add-on holds the OAuth access token.", rec.Answer.Status)
		if rec.Answer.Location != "" {
			p += fmt.Sprintf(" It redirected to %s; answer 200 instead.", rec.Answer.Location)
		}
		if inTime {
			p += " It did obtain an OAuth access token, but the e-shop counts this install as failed."
		}
		problems = append(problems, p)
	case !inTime && late:
		problems = append(problems, "The add-on answered 200 before it exchanged the code: the exchange reached the OAuth server only after the answer. It must exchange the code while handling the install request and answer 200 only once it holds the OAuth access token.")
	case !inTime && refused > 0:
		problems = append(problems, "The add-on answered 200 although it holds no OAuth access token: its code exchange was refused. It must answer with an error status when the exchange fails.")
	case !inTime:
		problems = append(problems, fmt.Sprintf("The add-on answered 200 without exchanging the code. It must POST the code to %s (client_id, client_secret, code, redirect_uri, grant_type=authorization_code, scope=api) and answer 200 only once it holds the OAuth access token.", rec.TokenURL))
	}
	rec.Problems = problems
	rec.Passed = len(problems) == 0
	rec.Result = Failed
	rec.Summary = ""
	if rec.Passed {
		rec.Result = Passed
		rec.Summary = "The add-on exchanged the code for an OAuth access token while handling the install request, then answered 200."
	} else {
		rec.Summary = problems[0]
	}
	if rec.Problems == nil {
		rec.Problems = []string{}
	}
}

// refusalHeadlines say in a few words what a refused exchange means.
var refusalHeadlines = map[string]string{
	oauth.ReasonUsedCode:     "The add-on reused the code",
	oauth.ReasonClientSecret: "The add-on sent a wrong client_secret",
	oauth.ReasonClientID:     "The add-on sent a wrong client_id",
	oauth.ReasonRedirectURI:  "The add-on sent a wrong redirect_uri",
	oauth.ReasonExpiredCode:  "The add-on exchanged the code too late",
	oauth.ReasonUnknownCode:  "The add-on sent a code the e-shop did not issue",
	oauth.ReasonCodeLength:   "The add-on altered the code",
	oauth.ReasonGrantType:    "The add-on sent a wrong grant_type",
	oauth.ReasonScope:        "The add-on sent a wrong scope",
	oauth.ReasonBadRequest:   "The add-on sent a malformed exchange request",
	oauth.ReasonUnknownEshop: "The add-on posted to the OAuth address of an e-shop that does not exist",
	oauth.ReasonAddonGone:    "The add-on is no longer configured",
}

func refusal(n int, a Attempt) string {
	head, ok := refusalHeadlines[a.Reason]
	if !ok {
		head = "The code exchange was refused"
	}
	return fmt.Sprintf("%s: exchange %d was refused with HTTP %d %s. %s", head, n, a.Status, a.Error, a.Description)
}
