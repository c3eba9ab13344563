package runner

import (
	"reflect"
	"testing"
)

// TestScenarioSwitchesModules: a scenario switches an e-shop's modules
// with call steps to the control plane, and the API follows: e-shop 1002
// reads stocks only after multipleStocks is on, and the 403 it got before
// is no finding of a strict run.
func TestScenarioSwitchesModules(t *testing.T) {
	res, out := runYAML(t, `name: stocks need the multipleStocks module
strict: true
steps:
  - name: without the module
    call: {eshop: 1002, path: /api/stocks, expect: {status: 403, body: {data: null, errors: [{errorCode: module-not-enabled, instance: multipleStocks}]}}}
  - name: switch it on
    call: {eshop: 1002, method: PUT, path: /_sandbox/eshops/1002/modules/multipleStocks, expect: {status: 200}}
  - name: with the module
    call: {eshop: 1002, path: /api/stocks, expect: {status: 200}}
  - name: switch every module off
    call: {eshop: 1002, method: PUT, path: /_sandbox/eshops/1002/modules, body: {modules: []}, expect: {status: 200, body: {data: {activeModules: []}}}}
  - name: variant parameters close too
    call: {eshop: 1002, path: /api/products/variant-parameters, expect: {status: 403, body: {errors: [{instance: productVariants}]}}}
`, Options{})
	if got, want := statuses(res), []string{Passed, Passed, Passed, Passed, Passed, Passed}; !res.Passed || !reflect.DeepEqual(got, want) {
		t.Fatalf("statuses %v, want %v\n%s", got, want, out)
	}
}
