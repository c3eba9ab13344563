package tui

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
)

// reportView is the contract report (GET /_sandbox/report): one row per
// finding, oldest first.
var reportView = &dataView{
	path:    scenario.ReportPath,
	columns: []column{{title: "TIME", width: 8}, {title: "SHOP", width: 5}, {title: "RULE", width: 28}, {title: "CALL"}},
	toneCol: -1,
	empty:   "No finding: the add-on kept every rule of the contract report so far.",
	load:    loadReport,
}

func loadReport(raw json.RawMessage, st Styles) (viewData, error) {
	var v scenario.ReportView
	if err := json.Unmarshal(raw, &v); err != nil {
		return viewData{}, fmt.Errorf("the report: %v", err)
	}
	rules := map[string]string{}
	for _, r := range v.Rules {
		rules[r.Name] = r.Description
	}
	var d viewData
	for i, f := range v.Findings {
		call := strings.TrimSpace(f.Method + " " + f.Path)
		if call == "" {
			call = f.Message
		}
		s := sheet{st: st}
		s.para(f.Message)
		s.field("time", f.Time.Format("2006-01-02 15:04:05.000"))
		s.field("call", call)
		s.field("request id", f.RequestID)
		s.field("operation", f.Operation)
		if f.Eshop != 0 {
			s.field("e-shop", fmt.Sprint(f.Eshop))
		}
		s.field("token", strings.TrimSpace(f.TokenKind+" "+f.Token))
		if desc := rules[f.Rule]; desc != "" {
			s.section("Rule " + f.Rule)
			s.text(desc)
		}
		d.rows = append(d.rows, viewRow{key: fmt.Sprint(f.Rule, "|", f.RequestID, "|", f.Time.UnixNano(), "|", i), eshop: f.Eshop,
			cells: []string{f.Time.Format("15:04:05"), eshopCell(f.Eshop), f.Rule, call},
			title: "Finding · " + f.Rule, detail: s.String()})
	}
	d.summary = reportSummary(v)
	return d, nil
}

// reportSummary counts the findings per rule.
func reportSummary(v scenario.ReportView) string {
	var s string
	if v.Clean {
		s = "Clean: no finding so far"
	} else {
		var parts []string
		for name, n := range v.Counts {
			if n > 0 {
				parts = append(parts, fmt.Sprintf("%s %d", name, n))
			}
		}
		sort.Strings(parts)
		s = fmt.Sprintf("%d findings: %s", len(v.Findings), strings.Join(parts, ", "))
		if v.Dropped > 0 {
			s += fmt.Sprintf(" (%d older left out)", v.Dropped)
		}
	}
	if v.Scenario != "" {
		s += " · scenario " + v.Scenario
	}
	return s
}
