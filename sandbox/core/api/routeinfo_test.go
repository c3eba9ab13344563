package api

import (
	"reflect"
	"testing"
)

func TestRouteTemplate(t *testing.T) {
	for _, tc := range []struct {
		path     string
		template string
		params   []PathParam
		control  bool
	}{
		{"/_sandbox/health", "/_sandbox/health", nil, true},
		{"/_sandbox", "/_sandbox", nil, true},
		{"/_sandboxes", "/_sandboxes", nil, false},
		{"/api/orders/{code}", "/api/orders/{code}", []PathParam{{Name: "code"}}, false},
		{"/_sandbox/eshops/{eshopId:[0-9]+}/order-statuses/{statusId:-?[0-9]+}", "/_sandbox/eshops/{eshopId}/order-statuses/{statusId}",
			[]PathParam{{"eshopId", "[0-9]+"}, {"statusId", "-?[0-9]+"}}, true},
		{"/x/{n:[0-9]{2,3}}/y", "/x/{n}/y", []PathParam{{"n", "[0-9]{2,3}"}}, false},
		{"/x/{broken", "/x/{broken", nil, false},
	} {
		rt := Route{Path: tc.path}
		if got := rt.Template(); got != tc.template {
			t.Errorf("%s: template %q, want %q", tc.path, got, tc.template)
		}
		if got := rt.PathParams(); !reflect.DeepEqual(got, tc.params) {
			t.Errorf("%s: params %v, want %v", tc.path, got, tc.params)
		}
		if got := rt.IsControl(); got != tc.control {
			t.Errorf("%s: control %v, want %v", tc.path, got, tc.control)
		}
	}
}
