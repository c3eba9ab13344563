package tui

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/shop/addons"
)

// installsView lists the install handshakes run so far
// (GET /_sandbox/installs), each with its verdict.
var installsView = &dataView{
	path: "/_sandbox/installs",
	columns: []column{{title: "TIME", width: 8}, {title: "SHOP", width: 5}, {title: "ADD-ON", width: 16}, {title: "RESULT", width: 7},
		{title: "CODE", width: 4, right: true}, {title: "SUMMARY"}},
	toneCol: 3,
	empty:   "No install yet: sandbox install (or POST /_sandbox/eshops/{id}/install) runs one.",
	load:    loadInstalls,
}

func loadInstalls(raw json.RawMessage, st Styles) (viewData, error) {
	var v struct {
		Installs []addons.InstallReport `json:"installs"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return viewData{}, fmt.Errorf("the installs: %v", err)
	}
	var d viewData
	passed := 0
	for _, r := range v.Installs {
		s := sheet{st: st}
		s.para(r.Summary)
		s.field("result", r.Result)
		s.field("add-on", r.Addon)
		s.field("e-shop", eshopCell(r.EshopID))
		s.field("install URL", r.InstallURL)
		s.field("token URL", r.TokenURL)
		s.field("started", r.StartedAt)
		s.field("finished", r.FinishedAt)
		s.field("code expires", r.CodeExpiresAt)
		s.field("add-on now", r.AddonStatus)
		s.field("unreachable", r.Unreachable)
		code := "-"
		if a := r.Answer; a != nil {
			code = fmt.Sprint(a.Status)
			s.section("The add-on's answer")
			s.field("status", statusLine(a.Status))
			s.field("location", a.Location)
			s.field("took", fmt.Sprintf("%dms", a.DurationMs))
			if a.Body != "" {
				s.text(a.Body)
			}
		}
		if len(r.Problems) > 0 {
			s.section("Problems")
			for _, p := range r.Problems {
				s.text("• " + p)
			}
		}
		if len(r.Exchanges) > 0 {
			s.section("Code exchanges")
			for _, x := range r.Exchanges {
				line := fmt.Sprintf("%s %d %s", shortTime(x.Time), x.Status, x.URL)
				var notes []string
				if x.Accepted {
					notes = append(notes, "accepted")
				}
				if x.AfterAnswer {
					notes = append(notes, "after the answer")
				}
				if x.OtherCode {
					notes = append(notes, "another code")
				}
				if x.Description != "" {
					notes = append(notes, x.Description)
				}
				if len(notes) > 0 {
					line += " (" + strings.Join(notes, ", ") + ")"
				}
				s.text(line)
			}
		}
		tone := 500
		switch {
		case r.Passed:
			tone = 200
			passed++
		case r.Result == addons.Running:
			tone = 100
		}
		d.rows = append(d.rows, viewRow{key: r.ID, eshop: r.EshopID,
			cells: []string{shortTime(r.StartedAt), eshopCell(r.EshopID), r.Addon, r.Result, code, r.Summary},
			tone:  tone, title: "Install · " + r.Addon + " in " + eshopCell(r.EshopID), detail: s.String()})
	}
	d.summary = fmt.Sprintf("%d installs, %d passed", len(v.Installs), passed)
	return d, nil
}
