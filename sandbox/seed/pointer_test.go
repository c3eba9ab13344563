package seed

import "testing"

func TestOffsetOf(t *testing.T) {
	raw := []byte("{\n  \"a\": 1,\n  \"b\": {\n    \"c\": [10,\n      {\"d\": \"x\"}]\n  },\n  \"e\": null\n}")
	tests := map[string]int{
		"/a":       2,
		"/b":       3,
		"/b/c":     4,
		"/b/c/0":   4,
		"/b/c/1":   5,
		"/b/c/1/d": 5,
		"/e":       7,
	}
	for ptr, line := range tests {
		off := offsetOf(raw, ptr)
		if off < 0 {
			t.Errorf("%s: not found", ptr)
			continue
		}
		if got := lineAt(raw, off); got != line {
			t.Errorf("%s: line %d, want %d", ptr, got, line)
		}
	}
	if offsetOf(raw, "/zzz") != -1 || offsetOf(raw, "/b/c/5") != -1 {
		t.Error("missing pointer found")
	}
}
