package tui

import (
	"encoding/json"
	"fmt"

	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
)

// faultsView lists the faults in force (GET /_sandbox/faults): the
// scenario's, those added while serving, the built-in ones, with how
// often each matched and acted.
var faultsView = &dataView{
	path: scenario.FaultsPath,
	columns: []column{{title: "NAME"}, {title: "KIND", width: 16}, {title: "TRIGGER", width: 8}, {title: "SOURCE", width: 8},
		{title: "MATCHED", width: 7, right: true}, {title: "HITS", width: 5, right: true}},
	toneCol: -1,
	empty:   "No fault in force. Add one with POST /_sandbox/faults or sandbox up --scenario.",
	load:    loadFaults,
}

func loadFaults(raw json.RawMessage, st Styles) (viewData, error) {
	var v struct {
		Faults   []scenario.FaultView `json:"faults"`
		Header   string               `json:"header"`
		Scenario *string              `json:"scenario"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return viewData{}, fmt.Errorf("the faults: %v", err)
	}
	var d viewData
	hits := 0
	for i, f := range v.Faults {
		s := sheet{st: st}
		s.para(f.Description)
		s.field("kind", f.Kind)
		s.field("trigger", f.Trigger)
		s.field("source", f.Source)
		s.field("id", f.ID)
		s.field("matched", fmt.Sprint(f.Matched))
		s.field("acted", fmt.Sprint(f.Hits))
		if f.Fault != nil {
			s.section("As written")
			s.json(f.Fault)
		}
		hits += f.Hits
		key := f.ID
		if key == "" {
			key = fmt.Sprint(f.Source, "|", f.Name, "|", i)
		}
		d.rows = append(d.rows, viewRow{key: key, cells: []string{f.Name, f.Kind, f.Trigger, f.Source, fmt.Sprint(f.Matched), fmt.Sprint(f.Hits)},
			title: "Fault · " + f.Name, detail: s.String()})
	}
	d.summary = fmt.Sprintf("%d faults, %d acted", len(v.Faults), hits)
	if v.Scenario != nil && *v.Scenario != "" {
		d.summary += " · scenario " + *v.Scenario
	}
	if v.Header != "" {
		d.summary += " · a call picks one with " + v.Header
	}
	return d, nil
}
