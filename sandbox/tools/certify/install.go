package certify

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/shop/addons"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/oauth"
)

// installs plays the install handshake twice, as the e-shop does when
// the add-on is installed and then installed again, and judges the
// handshake, the codes and the second install.
func (s *suite) installs() {
	first := s.install()
	s.settle()
	second := s.install()
	s.settle()
	// Exchanges that reach the OAuth server after the answer are added to
	// the stored reports; read them again.
	first, second = s.reread(first), s.reread(second)
	s.installed = first.exchanged() || second.exchanged()
	s.judgeHandshake(first, second)
	s.judgeCodes(first, second)
	s.judgeReinstall(second)
}

// attempt is one install: its report, or why the sandbox could not run it.
type attempt struct {
	rec *addons.InstallReport
	err error
}

func (s *suite) install() attempt {
	rec, err := s.cc.Install(s.ctx, s.o.Eshop, s.o.Addon)
	if err != nil {
		return attempt{err: err}
	}
	return attempt{rec: rec}
}

func (s *suite) reread(a attempt) attempt {
	if a.rec == nil {
		return a
	}
	if rec, err := s.cc.InstallRecord(s.ctx, a.rec.ID); err == nil {
		a.rec = rec
	}
	return a
}

// settle waits until the add-on has done what the last stimulus set off.
func (s *suite) settle() { s.log.waitQuiet(s.ctx, s.o.Timing.Quiet, s.o.Timing.Settle) }

// evidence describes an install: the request, the answer and every code
// exchange, in the install report's words.
func (a attempt) evidence(n int) []string {
	if a.rec == nil {
		return []string{fmt.Sprintf("install %d: the sandbox could not run it: %v", n, a.err)}
	}
	r := a.rec
	var out []string
	switch {
	case r.Answer != nil:
		out = append(out, fmt.Sprintf("install %d: GET %s?code=<%d characters> -> HTTP %d after %d ms", n, r.InstallURL, oauth.CodeLength, r.Answer.Status, r.Answer.DurationMs))
	default:
		out = append(out, fmt.Sprintf("install %d: GET %s?code=<%d characters> -> no answer: %s", n, r.InstallURL, oauth.CodeLength, r.Unreachable))
	}
	for i, x := range r.Exchanges {
		when := "before the answer"
		if x.AfterAnswer {
			when = "AFTER the answer"
		}
		what := "accepted"
		if !x.Accepted {
			what = fmt.Sprintf("refused with HTTP %d %s (%s)", x.Status, x.Error, x.Reason)
		}
		if x.OtherCode {
			what += ", with a code not sent with this install"
		}
		out = append(out, fmt.Sprintf("install %d: code exchange %d %s, %s, at %s", n, i+1, what, when, x.Time))
	}
	if len(r.Exchanges) == 0 {
		out = append(out, fmt.Sprintf("install %d: no code exchange at %s", n, r.TokenURL))
	}
	return out
}

// exchanged reports whether the add-on obtained an OAuth token with the
// install's code (in time or not).
func (a attempt) exchanged() bool {
	if a.rec == nil {
		return false
	}
	for _, x := range a.rec.Exchanges {
		if x.Accepted && !x.OtherCode {
			return true
		}
	}
	return false
}

// answeredEarly reports an install answered 200 while the add-on held no
// OAuth token of it: it exchanged the code only afterwards, or not at
// all, or its exchange was refused.
func answeredEarly(r *addons.InstallReport) bool {
	if r == nil || r.Answer == nil || r.Answer.Status != http.StatusOK {
		return false
	}
	for _, x := range r.Exchanges {
		if x.Accepted && !x.AfterAnswer && !x.OtherCode {
			return false
		}
	}
	return true
}

func (s *suite) judgeHandshake(first, second attempt) {
	ev := append(first.evidence(1), second.evidence(2)...)
	switch {
	case first.rec == nil:
		s.res.set(CheckInstall, Failed, "The install could not be run: "+first.err.Error(), ev)
	case !first.rec.Passed:
		s.res.set(CheckInstall, Failed, strings.Join(first.rec.Problems, " "), ev)
	case answeredEarly(second.rec):
		s.res.set(CheckInstall, Failed, "The second install: "+second.rec.Summary, ev)
	default:
		s.res.set(CheckInstall, Passed, first.rec.Summary, ev)
	}
}

func (s *suite) judgeCodes(first, second attempt) {
	var bad, ev []string
	var silent []string // installs whose code was not sent at all
	for n, a := range []attempt{first, second} {
		ev = append(ev, a.evidence(n+1)...)
		if a.rec == nil {
			continue
		}
		if len(a.rec.Exchanges) == 0 {
			silent = append(silent, fmt.Sprintf("install %d", n+1))
		}
		for i, x := range a.rec.Exchanges {
			switch {
			case x.OtherCode:
				bad = append(bad, fmt.Sprintf("install %d, exchange %d used a code that was not sent with that install (an earlier one's?)", n+1, i+1))
			case !x.Accepted && x.Reason == oauth.ReasonUsedCode:
				bad = append(bad, fmt.Sprintf("install %d, exchange %d sent a code that was already exchanged", n+1, i+1))
			}
		}
	}
	switch {
	case len(bad) > 0:
		s.res.set(CheckCodeOnce, Failed, "Codes are single use and belong to one install: "+strings.Join(bad, "; ")+".", ev)
	case first.rec == nil || second.rec == nil:
		s.res.set(CheckCodeOnce, NotExercised, "Both installs are needed to tell whether the add-on sends each install's own code once, and one could not be run.", ev)
	case len(silent) > 0:
		// No exchange sends no code twice and no other install's code:
		// that says nothing about which code the add-on would send.
		s.res.set(CheckCodeOnce, NotExercised, fmt.Sprintf("The add-on exchanged no code in %s: which code it sends, and how often, could not be seen.", strings.Join(silent, " and ")), ev)
	default:
		s.res.set(CheckCodeOnce, Passed, "Each install's code was exchanged at most once, and no other install's code was sent.", ev)
	}
}

func (s *suite) judgeReinstall(second attempt) {
	ev := second.evidence(2)
	if second.rec == nil {
		s.res.set(CheckReinstall, Failed, "The second install could not be run: "+second.err.Error(), ev)
		return
	}
	r := second.rec
	switch {
	case r.Answer == nil:
		s.res.set(CheckReinstall, Failed, "The add-on did not answer the second install: "+r.Unreachable+".", ev)
	case r.Answer.Status != http.StatusOK:
		s.res.set(CheckReinstall, Failed, fmt.Sprintf("The add-on answered the second install with HTTP %d; an add-on installed again (after an uninstall elsewhere, or a reinstall) must take the new code and answer 200.", r.Answer.Status), ev)
	case !second.exchanged():
		s.res.set(CheckReinstall, Failed, "The add-on answered the second install 200 without exchanging its new code: it holds no OAuth token of this install.", ev)
	default:
		s.res.set(CheckReinstall, Passed, "The add-on exchanged the second install's new code and answered 200.", ev)
	}
}
