package jobs

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/app/surface"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
)

// TestHooksInStepWithSurface: the engine jobs builds when the app gives
// none completes the table with the same hooks as the app's (jobs cannot
// import sandbox/app/surface, so it lists them itself).
func TestHooksInStepWithSurface(t *testing.T) {
	describe := func(hs []crud.Hook) []string {
		var out []string
		for _, h := range hs {
			v := reflect.ValueOf(h)
			line := h.Resource + " " + h.Operation
			for i := 0; i < v.NumField(); i++ {
				f := v.Field(i)
				if f.Kind() == reflect.Func && !f.IsNil() {
					line += fmt.Sprintf(" %s=%x", v.Type().Field(i).Name, f.Pointer())
				}
			}
			out = append(out, line)
		}
		return out
	}
	if got, want := describe(hooks()), describe(surface.Hooks()); !reflect.DeepEqual(got, want) {
		t.Fatalf("jobs' hooks:\n%v\nsurface.Hooks:\n%v", got, want)
	}
}
