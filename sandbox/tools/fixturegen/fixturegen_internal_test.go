package fixturegen

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestIDFirst(t *testing.T) {
	tests := []struct{ in, field, want string }{
		{`{"a":1,"guid":"x","z":[1]}`, "guid", `{"guid":"x","a":1,"z":[1]}`},
		{`{"a":1,"b":{"guid":"in"},"guid":"x"}`, "guid", `{"guid":"x","a":1,"b":{"guid":"in"}}`},
		{`{"guid":"x","a":1}`, "guid", `{"guid":"x","a":1}`},
		{`{"a":1}`, "guid", `{"a":1}`},
		{`{"a":1,"id":7}`, "id", `{"id":7,"a":1}`},
		{`{"a":1,"id":7}`, "", `{"a":1,"id":7}`},
	}
	for _, tc := range tests {
		got := string(idFirst([]byte(tc.in), tc.field))
		if got != tc.want {
			t.Errorf("idFirst(%s, %q) = %s, want %s", tc.in, tc.field, got, tc.want)
		}
		var a, b any
		if json.Unmarshal([]byte(got), &a) != nil || json.Unmarshal([]byte(tc.in), &b) != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("idFirst(%s) changed the record: %s", tc.in, got)
		}
	}
}
